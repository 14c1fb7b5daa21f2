import { z } from 'zod';
import type { Area } from './access.js';
import { ZFieldError } from './common.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an entry:
 * - `public`: anyone, no token needed.
 * - `session`: any live session, even one still waiting for its second factor (2FA calls, logout).
 * - `signedIn`: a live session that has passed 2FA where the user or the company needs it.
 * - `{ area, access }`: signed in, and the access type grants that area (spec §6).
 */
export type Guard = 'public' | 'session' | 'signedIn' | { area: Area; access: 'read' | 'write' };

/**
 * The objects a call can be guarded on, and the rights each has. An area adds its kind here
 * and registers the check that answers it (API: `lib/object-guards.ts`).
 */
export const OBJECT_RIGHTS = {
  category: ['view', 'upload', 'edit', 'delete', 'share', 'manage'],
  file: ['view', 'download', 'edit', 'delete', 'share'],
  /** A file's version (version-preview, rollback): the rights of its file. */
  version: ['view', 'download', 'edit'],
  /** An "other file" attached to a file: the rights of its file. */
  attachment: ['view', 'download', 'edit'],
} as const;
export type ObjectKind = keyof typeof OBJECT_RIGHTS;
export type ObjectRight<K extends ObjectKind = ObjectKind> = (typeof OBJECT_RIGHTS)[K][number];

/**
 * Where the guarded id is read, after validation: `params.id` (the default), `body.file_id`,
 * or an array such as `body.file_ids` (every id is checked: all or nothing).
 */
export type IdSource = `${'params' | 'query' | 'body'}.${string}`;

/**
 * The second guard step, after validation and before the handler: may this caller act on
 * this object? `{ file: 'edit', from: 'body.file_id' }`. An object the caller may not see
 * answers 404 (as one that does not exist); one they see without the right answers 403.
 */
export type ObjectGuard = {
  [K in ObjectKind]: { [P in K]: ObjectRight<K> } & { from?: IdSource };
}[ObjectKind];

/** The kind, right and id source of an object guard. */
export function objectGuardParts(guard: ObjectGuard): {
  kind: ObjectKind;
  right: ObjectRight;
  from: IdSource;
} {
  const kind = (Object.keys(guard) as Array<ObjectKind | 'from'>).find((k) => k !== 'from') as ObjectKind;
  const right = (guard as unknown as Record<ObjectKind, ObjectRight>)[kind];
  return { kind, right, from: guard.from ?? 'params.id' };
}

/** The file parts of a multipart call. */
export interface UploadSpec {
  /** The form field that carries the file(s). */
  field: string;
  /** How many files one call takes (default 1). */
  max?: number;
  /** A call without a file is a 400 unless this is false (default true). */
  required?: boolean;
}

export interface EndpointDef {
  method: HttpMethod;
  /** The spec's exact path, `{name}` for path parameters. */
  path: string;
  summary: string;
  guard: Guard;
  /** The per-object guard, run after validation (see ObjectGuard). */
  object?: ObjectGuard;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The `data` of the `{ message?, data }` envelope; absent for file downloads. */
  response?: z.ZodType;
  /** `file`: the response is a file stream (download), not JSON. */
  produces?: 'json' | 'file';
  /** The media type of a file response, for the OpenAPI document (default application/octet-stream). */
  mediaType?: string;
  /**
   * `multipart`: the body is multipart/form-data. Its text fields are the `body` schema (the
   * file field too, typed `z.custom<Blob>()` for the web client); they must come before the
   * file parts, and are validated, and the object guard run, before a file byte is stored.
   */
  consumes?: 'json' | 'multipart';
  /** The file parts of a multipart call. */
  upload?: UploadSpec;
  /** The call talks to an outside server (SMTP, LDAP): it can answer 502 when that fails. */
  upstream?: true;
  /**
   * A POST that writes nothing (the spec sends its filters or question as a body): it answers
   * like a GET, so an expired licence (read-only) does not refuse it.
   */
  reads?: true;
  /**
   * A call the product needs that the spec does not list (e.g. an import template). Spec
   * calls keep the spec's exact method and path; extensions must be marked.
   */
  extension?: true;
}

/** Declares one call. The `const` generic keeps the literal types the web client needs. */
export function endpoint<const E extends EndpointDef>(def: E): E {
  return def;
}

/** Every JSON success response: `{ message?, data }`. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ message: z.string().optional(), data });
}

/** Every error response: a message a person can act on, a code, and the fields at fault. */
export const ZErrorBody = z.object({
  message: z.string(),
  code: z.string().optional(),
  errors: z.array(ZFieldError).optional(),
});
export type TErrorBody = z.infer<typeof ZErrorBody>;

export type Params<E extends EndpointDef> = E['params'] extends z.ZodType ? z.infer<E['params']> : undefined;
export type Query<E extends EndpointDef> = E['query'] extends z.ZodType ? z.input<E['query']> : undefined;
export type Body<E extends EndpointDef> = E['body'] extends z.ZodType ? z.input<E['body']> : undefined;
export type Data<E extends EndpointDef> = E['response'] extends z.ZodType ? z.infer<E['response']> : Blob;

/** `/api/editUser/{id}` with `{ id: 3 }` -> `/api/editUser/3`. */
export function buildPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}

/** `/api/editUser/{id}` -> `/api/editUser/:id` (Fastify's syntax). */
export function toRoutePath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}
