import { createRequire } from 'node:module';

// Packages that take megabytes and a second or more to load but serve only a rare call
// (writing a spreadsheet, sending mail, asking the LDAP directory) are loaded the first
// time that call needs them, not at start, so an idle server stays small (issue 25:
// exceljs alone added about 40 MB of RSS and 2 s to every start; nodemailer about 25 MB).
// Loaded with require (each of them ships CommonJS), so a synchronous caller can use them
// too; Node caches the module, so only the first call pays. `pnpm bench` measures the idle
// server; import one of these statically and the figure grows again.
const require = createRequire(import.meta.url);

export function loadLater<T>(name: string): () => T {
  return () => require(name) as T;
}

/** exceljs: `new (excel().Workbook)()` (the parentheses: `new excel()` would call excel as a constructor). */
export const excel = loadLater<typeof import('exceljs')>('exceljs');
/** nodemailer: `mailer().createTransport(…)`. */
export const mailer = loadLater<typeof import('nodemailer')>('nodemailer');
/** ldapts: `new (ldap().Client)(…)`, `err instanceof ldap().InvalidCredentialsError`. */
export const ldap = loadLater<typeof import('ldapts')>('ldapts');
/** qrcode: `qrcode().toDataURL(…)`. */
export const qrcode = loadLater<typeof import('qrcode')>('qrcode');
/** imapflow (e-mail inboxes of intake): `new (imap().ImapFlow)(…)`. */
export const imap = loadLater<typeof import('imapflow')>('imapflow');
/** mailparser: `new (mailParser().MailParser)(…)`. */
export const mailParser = loadLater<typeof import('mailparser')>('mailparser');
/** otplib (2FA codes, with @noble/hashes and @scure/base): `otp().verify(…)`. */
export const otp = loadLater<typeof import('otplib')>('otplib');
/** pg-copy-streams (backup and restore of the database): `pgCopy().to(…)`. */
export const pgCopy = loadLater<typeof import('pg-copy-streams')>('pg-copy-streams');
/** yazl (a ZIP of several files, downloaded at once): `new (zipWriter().ZipFile)()`. */
export const zipWriter = loadLater<typeof import('yazl')>('yazl');
