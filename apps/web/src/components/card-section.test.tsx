import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CardSection } from './card-section';

describe('CardSection', () => {
  it('is a region named by its heading, with its aside on the heading row', () => {
    render(
      <CardSection headingId="runs-heading" title="Backup runs" aside={<span className="badge">On</span>}>
        <p>Body</p>
      </CardSection>,
    );
    const card = screen.getByRole('region', { name: 'Backup runs' });
    const heading = within(card).getByRole('heading', { level: 2, name: 'Backup runs' });
    expect(heading).toHaveAttribute('id', 'runs-heading');
    expect(heading.parentElement).toHaveClass('section-header');
    expect(heading.nextElementSibling).toHaveTextContent('On');
    expect(within(card).getByText('Body')).toBeInTheDocument();
  });
});
