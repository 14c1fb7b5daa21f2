// The password policy, shared: the web client shows the problems before submit, the API
// refuses them (400 naming the field).
import { COMMON_PASSWORDS } from './common-passwords.js';

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

// Common passwords of at least the minimum length (shorter ones are refused by the length
// rule): zxcvbn's breach-derived list, and a few a company's staff pick (seasons, product).
const COMMON = new Set([
  ...COMMON_PASSWORDS,
  '1234567890',
  '12345678910',
  '0123456789',
  '1111111111',
  '0000000000',
  '1234512345',
  '9876543210',
  'qwertyuiop',
  'password123',
  'password12',
  'password1!',
  'passw0rd123',
  'password1234',
  'iloveyou123',
  'qwerty1234',
  'qwerty12345',
  'qwerty123456',
  '1q2w3e4r5t',
  '1q2w3e4r5t6y',
  'q1w2e3r4t5',
  'zaq12wsxcde3',
  'asdfghjkl1',
  'asdfghjkl;',
  'zxcvbnm123',
  'abcdefghij',
  'abc1234567',
  'abcd123456',
  'aaaaaaaaaa',
  'letmein123',
  'welcome123',
  'welcome1234',
  'admin12345',
  'administrator',
  'changeme123',
  'football123',
  'baseball123',
  'sunshine123',
  'princess123',
  'superman123',
  'starwars123',
  'trustno1234',
  'monkey1234',
  'dragon1234',
  'master1234',
  'michael123',
  'jennifer123',
  'computer123',
  'internet123',
  'whatever123',
  'qazwsxedcrfv',
  'passwordpassword',
  'p@ssw0rd123',
  'p@ssword123',
  'secret1234',
  'mypassword1',
  'mypassword',
  'letmeinplease',
  'iloveyou1234',
  'liverpool123',
  'chelsea1234',
  'arsenal1234',
  'pokemon1234',
  'samsung123',
  'google1234',
  'summer2024',
  'summer2025',
  'summer2026',
  'winter2024',
  'winter2025',
  'winter2026',
  'spring2025',
  'spring2026',
  'autumn2025',
  'company123',
  'quire12345',
  'password2024',
  'password2025',
  'password2026',
  'welcome2025',
  'welcome2026',
  'changeit123',
  'default123',
  'guest12345',
  'test123456',
  'testtest123',
  'user123456',
  'login12345',
  'access1234',
  'hello12345',
  'love123456',
  'freedom123',
]);

export interface PasswordContext {
  username?: string | null;
  email?: string | null;
}

/** What is wrong with a new password, in words a person can act on; empty when it is fine. */
export function passwordProblems(password: string, context: PasswordContext = {}): string[] {
  const problems: string[] = [];
  if (password.length < PASSWORD_MIN_LENGTH) problems.push(`Use at least ${PASSWORD_MIN_LENGTH} characters`);
  if (password.length > PASSWORD_MAX_LENGTH) problems.push(`Use at most ${PASSWORD_MAX_LENGTH} characters`);
  const lower = password.toLowerCase();
  const username = context.username?.trim().toLowerCase();
  const mailbox = context.email?.trim().toLowerCase().split('@')[0];
  if ((username && lower.includes(username)) || (mailbox && mailbox.length >= 3 && lower.includes(mailbox))) {
    problems.push('Do not use your username or e-mail in the password');
  }
  if (COMMON.has(lower) || /^(.)\1+$/.test(password)) problems.push('This password is too common');
  return problems;
}
