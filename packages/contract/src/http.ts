import { z } from 'zod';
import type { Area } from './access.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an entry:
 * - `public`: anyone, no token needed.
 * - `session`: any live session, even one still waiting for its second factor (2FA calls, logout).
 * - `signedIn`: a live session that has passed 2FA where the user or the company needs it.
 * - `{ area, access }`: signed in, and the access type grants that area (spec §6).
 */
export type Guard = 'public' | 'session' | 'signedIn' | { area: Area; access: 'read' | 'write' };

export interface EndpointDef {
  method: HttpMethod;
  /** The spec's exact path, `{name}` for path parameters. */
  path: string;
  summary: string;
  guard: Guard;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** The `data` of the `{ message?, data }` envelope; absent for file downloads. */
  response?: z.ZodType;
  /** `file`: the response is a file stream (download), not JSON. */
  produces?: 'json' | 'file';
  /** `multipart`: the body is multipart/form-data and streams through the handler. */
  consumes?: 'json' | 'multipart';
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
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
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
