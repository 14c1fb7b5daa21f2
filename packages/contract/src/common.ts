import { z } from 'zod';
import { ACCESS_TYPES, LOGIN_ROLES } from './access.js';

/** A numeric id in a path or body (a PostgreSQL integer); path and query values arrive as strings. */
export const ZId = z.coerce.number().int().positive().max(2147483647);
export const ZIdParams = z.object({ id: ZId });

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
  .regex(/^[a-z0-9._-]+$/, 'Use letters, digits, dots, dashes and underscores');

/** Trimmed, non-empty text of bounded length. */
export const ZText = (max = 255) => z.string().trim().min(1, 'Required').max(max);

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
