import { describe, expect, it } from 'vitest';
import { explainSmtpError, isSmtpHost } from './smtp-error';

describe('explainSmtpError', () => {
  it.each([
    ['EDNS: getaddrinfo ENOTFOUND smtp.invalid', {}, 'Could not find the mail server smtp.invalid'],
    ['getaddrinfo EDNS', { host: 'mail.example.test' }, 'Could not find the mail server mail.example.test'],
    [
      'The test e-mail could not be sent: ESOCKET: connect ECONNREFUSED 127.0.0.1:1',
      {},
      'The mail server at 127.0.0.1:1 refused the connection',
    ],
    [
      'ECONNREFUSED',
      { host: 'smtp.example.test', port: 587 },
      'The mail server at smtp.example.test:587 refused the connection',
    ],
    ['ETIMEDOUT: Connection timeout', {}, 'The mail server did not answer'],
    ['ESOCKET: Greeting never received, timed out', {}, 'The mail server did not answer'],
    [
      'EAUTH: Invalid login: 535 Authentication failed',
      {},
      'The mail server refused the username or password',
    ],
  ])('%s', (raw, target, summary) => {
    expect(explainSmtpError(raw, target)).toEqual({ summary, detail: raw });
  });

  it('leaves other messages alone', () => {
    expect(explainSmtpError('550 Mailbox unavailable')).toBeNull();
    expect(explainSmtpError(null)).toBeNull();
  });
});

describe('isSmtpHost', () => {
  it.each(['smtp.example.com', 'localhost', '127.0.0.1', 'mail-1.example.co.uk', '::1', '[2001:db8::1]'])(
    'accepts %s',
    (host) => expect(isSmtpHost(host)).toBe(true),
  );
  it.each([
    'smtp example.com',
    'smtp..example.com',
    '-smtp.example.com',
    'smtp.example.com:587',
    'http://smtp.x',
  ])('refuses %s', (host) => expect(isSmtpHost(host)).toBe(false));
});
