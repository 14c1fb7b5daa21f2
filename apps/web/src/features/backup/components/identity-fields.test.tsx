import { describe, expect, it } from 'vitest';
import { identityProblems, identityProof } from './identity-fields';

describe('the identity a backup call asks for', () => {
  it('wants the password, and six digits only when two-factor is on', () => {
    expect(identityProblems({ password: '', code: '' }, false)).toEqual({ password: 'Enter your password' });
    expect(identityProblems({ password: 'pw', code: '12345' }, true)).toEqual({
      code: 'Enter the 6-digit code',
    });
    expect(identityProblems({ password: 'pw', code: '123456' }, true)).toEqual({});
    expect(identityProblems({ password: 'pw', code: '' }, false)).toEqual({});
  });

  it('sends the code only when one was typed', () => {
    expect(identityProof({ password: 'pw', code: '' })).toEqual({ password: 'pw' });
    expect(identityProof({ password: 'pw', code: '123456' })).toEqual({ password: 'pw', code: '123456' });
  });
});
