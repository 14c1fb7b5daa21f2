// One typed fetch for every contract entry: method and path from the entry, the bearer token
// from stored auth, JSON in and out, and the `{ message?, data }` envelope unwrapped. Only
// types come from the contract here: this file is part of the first chunk, which stays free
// of zod (a page that needs the schemas imports them itself).
import type { Body, Data, EndpointDef, Params, Query } from '@quire/contract';
import { queryOptions } from '@tanstack/react-query';
import { ApiError } from './api-error';
import { getAccessToken } from './storage';

type ParamsOption<E extends EndpointDef> =
  Params<E> extends undefined ? { params?: undefined } : { params: Params<E> };
type QueryOption<E extends EndpointDef> =
  Query<E> extends undefined ? { query?: undefined } : { query?: Query<E> };
type BodyOption<E extends EndpointDef> = Body<E> extends undefined ? { body?: undefined } : { body: Body<E> };

/**
 * What a call needs of a contract entry: its method and path (and whether it answers a file).
 * A full entry is one; `endpointRef<typeof contract.auth.login>({ method, path })` makes one
 * without importing the contract's schemas, checked against the entry's literal types.
 */
export interface EndpointRef<E extends EndpointDef = EndpointDef> {
  readonly method: E['method'];
  readonly path: E['path'];
  readonly produces?: E['produces'];
  /** Type only: the contract entry this stands for. */
  readonly entry?: E;
}

/** A zod-free reference to a contract entry: `endpointRef<typeof contract.auth.login>(…)`. */
export function endpointRef<E extends EndpointDef>(ref: {
  method: E['method'];
  path: E['path'];
  produces?: E['produces'];
}): EndpointRef<E> {
  return ref;
}

/** `/api/editUser/{id}` with `{ id: 3 }` -> `/api/editUser/3`. */
function fillPath(path: string, params: Record<string, string | number> | undefined): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter "${name}" for ${path}`);
    return encodeURIComponent(String(value));
  });
}

export type CallOptions<E extends EndpointDef> = ParamsOption<E> &
  QueryOption<E> &
  BodyOption<E> & { signal?: AbortSignal };

/** The options argument may be left out when the entry needs neither params nor a body. */
type CallArgs<E extends EndpointDef> =
  object extends CallOptions<E> ? [options?: CallOptions<E>] : [options: CallOptions<E>];

export interface ApiResult<T> {
  data: T;
  message: string | undefined;
}

export function toQueryString(query: Record<string, unknown> | undefined): string {
  if (!query) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
  }
  const s = search.toString();
  return s ? `?${s}` : '';
}

export function urlFor(entry: EndpointRef, options: { params?: unknown; query?: unknown } = {}): string {
  const path = fillPath(entry.path, options.params as Record<string, string | number> | undefined);
  return path + toQueryString(options.query as Record<string, unknown> | undefined);
}

async function readBody(response: Response): Promise<unknown> {
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return null;
  try {
    return await response.json();
  } catch {
    return null;
  }
}

export async function callApi<E extends EndpointDef>(
  entry: E | EndpointRef<E>,
  ...[options]: CallArgs<E>
): Promise<ApiResult<Data<E>>> {
  const opts = (options ?? {}) as { params?: unknown; query?: unknown; body?: unknown; signal?: AbortSignal };
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getAccessToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';

  const response = await fetch(urlFor(entry, opts), {
    method: entry.method,
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: opts.signal,
  });

  if (entry.produces === 'file' && response.ok) {
    return { data: (await response.blob()) as Data<E>, message: undefined };
  }
  const body = await readBody(response);
  if (!response.ok) throw new ApiError(response.status, body);
  const envelope = (body ?? {}) as { data?: unknown; message?: unknown };
  return {
    data: envelope.data as Data<E>,
    message: typeof envelope.message === 'string' ? envelope.message : undefined,
  };
}

/** The TanStack Query key of a call: `[path, params, query]`. */
export function queryKeyFor<E extends EndpointDef>(
  entry: E | EndpointRef<E>,
  options: { params?: Params<E>; query?: Query<E> } = {},
): readonly [string, Params<E> | null, Query<E> | null] {
  return [entry.path, options.params ?? null, options.query ?? null] as const;
}

/** Query options for a GET entry: its key, and a fetcher that TanStack Query can cancel. */
export function apiQueryOptions<E extends EndpointDef>(entry: E | EndpointRef<E>, ...[options]: CallArgs<E>) {
  const opts = (options ?? {}) as { params?: Params<E>; query?: Query<E> };
  return queryOptions({
    queryKey: queryKeyFor(entry, opts),
    queryFn: async ({ signal }) => {
      const args = [{ ...opts, signal }] as unknown as CallArgs<E>;
      return (await callApi(entry, ...args)).data;
    },
  });
}
