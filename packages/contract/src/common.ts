import { z } from 'zod';
import { ACCESS_TYPES, LOGIN_ROLES } from './access.js';

/** A numeric id in a path or body (a PostgreSQL integer); path and query values arrive as strings. */
export const ZId = z.coerce.number().int().positive().max(2147483647);
export const ZIdParams = z.object({ id: ZId });

// ---- text ---------------------------------------------------------------------------------
// Every string a call accepts is built from these, so control characters are refused (400,
// naming the field) once, for every call, before anything reaches a query: NUL and the other
// C0/C1 controls (PostgreSQL refuses NUL in text and jsonb), and in one-line text also line
// breaks and the bidirectional controls that make text read differently from what it holds.

/** Unicode's control characters (Cc): U+0000-U+001F and U+007F-U+009F. */
const CONTROL = /\p{Cc}/u;
const CONTROL_BUT_BREAKS = /(?![\t\n\r])\p{Cc}/u;
const LINE_BREAK = /[\r\n\u2028\u2029]/;
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export const TEXT_MESSAGES = {
  lineBreak: 'Use a single line, without line breaks',
  control: 'Remove the invisible control characters',
  bidi: 'Remove the invisible text-direction characters',
} as const;

/** The first rule a piece of text breaks, or null. `multiline` allows tabs and line breaks. */
export function textProblem(value: string, multiline = false): string | null {
  if (!multiline && LINE_BREAK.test(value)) return TEXT_MESSAGES.lineBreak;
  if ((multiline ? CONTROL_BUT_BREAKS : CONTROL).test(value)) return TEXT_MESSAGES.control;
  if (BIDI.test(value)) return TEXT_MESSAGES.bidi;
  return null;
}

const refuse =
  (check: (v: string) => string | null) =>
  (value: string, ctx: { addIssue: (issue: { code: 'custom'; message: string }) => void }) => {
    const message = check(value);
    if (message) ctx.addIssue({ code: 'custom', message });
  };

/** One line of text: no control characters, no line breaks, no bidi controls. Chain trim/min/max. */
export const zLine = () => z.string().superRefine(refuse((v) => textProblem(v)));

/** Free text over several lines: tabs and line breaks allowed, other controls and bidi controls not. */
export const zMultiline = () => z.string().superRefine(refuse((v) => textProblem(v, true)));

/** A password or secret as typed: any printable character (never trimmed), no control characters. */
export const zSecret = () =>
  z.string().superRefine(refuse((v) => (CONTROL.test(v) ? TEXT_MESSAGES.control : null)));

/** Whether a JSON value holds a control character (but tab and line breaks) in any string or key. */
export function hasControlDeep(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return CONTROL_BUT_BREAKS.test(value);
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => hasControlDeep(v, depth + 1));
  return Object.entries(value).some(([k, v]) => CONTROL_BUT_BREAKS.test(k) || hasControlDeep(v, depth + 1));
}

/** A person's first or last name: one line, at most 100 characters, trimmed. */
export const ZPersonName = zLine().trim().max(100);

/**
 * A username, the one rule for every form that sets one (create, import, edit, register,
 * start-up): 3-64 letters, digits, dots, underscores or dashes, compared in lower case. No
 * "@", so a username can never equal someone's e-mail (sign-in takes either).
 */
export const ZUsername = z
  .string()
  .trim()
  .toLowerCase()
  .min(3, 'Use at least 3 characters')
  .max(64, 'Use at most 64 characters')
  .regex(/^[a-z0-9._-]*$/, 'Use letters, digits, dots, dashes and underscores')
  .regex(/^([a-z0-9]|$)/, 'Start with a letter or a digit');

/** Trimmed, non-empty text of bounded length, on one line. */
export const ZText = (max = 255) => zLine().trim().min(1, 'Required').max(max);

export const ZAccessType = z.enum(ACCESS_TYPES);
export const ZLoginRole = z.enum(LOGIN_ROLES);
export const ZUserStatus = z.enum(['active', 'deactivated', 'deleted']);

/** `?page&quantity`: 1-based page, page size 1..100 (default 20, spec §9). */
export const ZPageQuery = (defaultQuantity = 20) =>
  z.object({
    page: z.coerce.number().int().min(1).default(1),
    quantity: z.coerce.number().int().min(1).max(500).default(defaultQuantity),
  });

export const ZPageMeta = z.object({
  page: z.number().int(),
  quantity: z.number().int(),
  total: z.number().int(),
  last_page: z.number().int(),
});

/** A page of rows: `{ items, page, quantity, total, last_page }`. */
export const ZPage = <T extends z.ZodType>(item: T) => ZPageMeta.extend({ items: z.array(item) });

/** A user as every call shows one: never a hash, never a 2FA secret. */
export const ZUser = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  name: z.string(),
  role: ZLoginRole,
  access_type: ZAccessType,
  status: ZUserStatus,
  is2FAEnabled: z.boolean(),
  created_at: z.string(),
});
export type TUser = z.infer<typeof ZUser>;

export const ZNull = z.null();

/** A refusal at one field: `{ path: 'body.email', message }` (`row 4.email` for a spreadsheet row). */
export const ZFieldError = z.object({ path: z.string(), message: z.string() });

export { DOCX_MEDIA_TYPE, XLSX_MEDIA_TYPE } from './media-types.js';

/** The multipart fields of every Excel import: `dry_run` ("true": check only) and the .xlsx `file`. */
export const excelImportFields = {
  dry_run: z.enum(['true', 'false']).optional(),
  file: z.custom<Blob>(),
};

/**
 * The answer of an Excel import: `dry_run`, the rows read (`row`: the spreadsheet row, 2 = the
 * first row below the header, then the row's own fields), `errors` (`{ path: 'row 4.email',
 * message }`; empty when the file is fine; nothing is saved otherwise), then what the import
 * saved (`saved`: nothing on a dry run).
 */
export const ZExcelImport = <Row extends z.ZodRawShape, Saved extends z.ZodRawShape>(
  row: Row,
  saved: Saved,
) =>
  z.object({
    dry_run: z.boolean(),
    rows: z.array(z.object({ row: z.number().int(), ...row })),
    errors: z.array(ZFieldError),
    ...saved,
  });
