import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PasswordPolicy } from './password-field';

const line = (text: string | RegExp) => screen.getByText(text).closest('li');

describe('the password checklist', () => {
  it('words the rules as what to reach, and says nothing yet before anything is typed', () => {
    render(<PasswordPolicy password="" context={{ username: 'ann' }} />);
    expect(screen.getByRole('list', { name: 'Password policy' })).toHaveTextContent(
      'Use at least 10 charactersDo not use your username or e-mail in the passwordNot a common password',
    );
    expect(line('Not a common password')).not.toHaveClass('is-met');
  });

  it('never ticks "not common" for a password too short to judge, such as "password"', () => {
    render(<PasswordPolicy password="password" context={{ username: 'ann' }} />);
    expect(line('Use at least 10 characters')).toHaveClass('is-unmet');
    expect(line('Not a common password')).not.toHaveClass('is-met');
    expect(line('Not a common password')).not.toHaveTextContent('(met)');
  });

  it('marks a common password in the words of the problem, and a good one met', () => {
    const { rerender } = render(<PasswordPolicy password="1234567890" context={{ username: 'ann' }} />);
    expect(line('This password is too common')).toHaveClass('is-unmet');
    rerender(<PasswordPolicy password="Quiet-River-Stone-42" context={{ username: 'ann' }} />);
    expect(line('Not a common password')).toHaveClass('is-met');
    expect(line('Use at least 10 characters')).toHaveClass('is-met');
  });
});
