import { describe, expect, it } from 'vitest';
import { fieldMessages } from './form';

describe('fieldMessages', () => {
  it("gives each field at fault its error's message, and nothing for the others", () => {
    const errors = {
      email: { type: 'validate', message: 'Enter an e-mail address' },
      port: { type: 'server', message: 'Use a port from 1 to 65535' },
    };
    expect(fieldMessages<{ email: string; port: string; host: string }>(errors)).toEqual({
      email: 'Enter an e-mail address',
      port: 'Use a port from 1 to 65535',
    });
    expect(fieldMessages({})).toEqual({});
  });
});
