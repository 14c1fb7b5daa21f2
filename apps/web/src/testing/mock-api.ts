import type { AccessType, Contract, Data, EndpointDef, TErrorBody } from '@quire/contract';
import { vi } from 'vitest';
import { signIn } from './fixtures';

export interface RecordedCall {
  method: string;
  path: string;
  search: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface Reply {
  status?: number;
  /** JSON body; a string is sent as text/plain. */
  body?: unknown;
}

function abortError(): DOMException {
  return new DOMException('The operation was aborted.', 'AbortError');
}

function abortable<T>(answer: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return answer;
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    signal.addEventListener('abort', () => reject(abortError()), { once: true });
    answer.then(resolve, reject);
  });
}

// The fake server's routes are typed by the contract: a key is an entry's method and path
// (`'PUT /api/editUser/3'` matches `PUT /api/editUser/{id}`), and a success body must be that
// entry's `{ data, message? }`. A contract change (a path, a field of an answer) breaks the
// tests that mock it, at typecheck.
type Entry = { [A in keyof Contract]: Contract[A][keyof Contract[A]] }[keyof Contract];
type PathPattern<P extends string> = P extends `${infer Head}{${string}}${infer Tail}`
  ? `${Head}${string}${PathPattern<Tail>}`
  : P;
type RouteKey<E> = E extends EndpointDef ? `${E['method']} ${PathPattern<E['path']>}` : never;
type EntryOf<K extends string> = Entry extends infer E
  ? E extends EndpointDef
    ? K extends RouteKey<E>
      ? E
      : never
    : never
  : never;

/** What the fake server answers for one entry: its envelope, or an error body, or text. */
export interface MockReply<E extends EndpointDef = EndpointDef> {
  status?: number;
  body?: { data: Data<E>; message?: string } | TErrorBody | string;
}
/**
 * The API's answer to bad input: a 400 `{ message, code: 'validation_failed', errors }` whose
 * one error names `path` (`body.name`, `body.items.1.label`).
 */
export function invalidInput(path: string, message: string, summary = 'Check the highlighted fields') {
  return refusedAt(path, message, { message: summary, code: 'validation_failed' });
}
/**
 * The API refusing a write at one field: `{ message, code?, errors: [{ path, message }] }`
 * with `status` 400 unless `reply` says (409 for a taken name).
 */
export function refusedAt(
  path: string,
  message: string,
  reply: { message: string; code?: string; status?: number },
) {
  const { status = 400, ...body } = reply;
  return { status, body: { ...body, errors: [{ path, message }] } } satisfies MockReply;
}
type MockHandler<E extends EndpointDef> =
  | MockReply<E>
  | ((call: RecordedCall) => MockReply<E> | Promise<MockReply<E>>);

/** `{ 'POST /api/login': { body: { data } } }`, each key a contract entry's method and path. */
export type MockRoutes = { [K in RouteKey<Entry>]?: MockHandler<EntryOf<K>> };

type Handler = Reply | ((call: RecordedCall) => Reply | Promise<Reply>);

/**
 * Replaces fetch with a fake server: `{ 'POST /api/login': { status, body } }`. Unknown calls
 * answer a JSON 404. Returns the calls made, in order.
 */
export function mockApi(typedRoutes: MockRoutes) {
  const routes = typedRoutes as Record<string, Handler>;
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const call: RecordedCall = {
      method: init.method ?? 'GET',
      path: url.pathname,
      search: url.search,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      // JSON as its value; a multipart FormData as `{ field: value }` (files stay File objects).
      body:
        typeof init.body === 'string'
          ? JSON.parse(init.body)
          : init.body instanceof FormData
            ? Object.fromEntries(init.body.entries())
            : undefined,
    };
    calls.push(call);
    const handler = routes[`${call.method} ${call.path}`];
    const answer = Promise.resolve(
      handler === undefined
        ? { status: 404, body: { message: `No such call: ${call.method} ${call.path}`, code: 'not_found' } }
        : typeof handler === 'function'
          ? handler(call)
          : handler,
    );
    // As fetch does: an aborted signal rejects the call at once, whatever the server is doing.
    const reply = await abortable(answer, init.signal ?? undefined);
    const status = reply.status ?? 200;
    if (typeof reply.body === 'string') {
      return new Response(reply.body, { status, headers: { 'content-type': 'text/plain' } });
    }
    return new Response(status === 204 ? null : JSON.stringify(reply.body ?? {}), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('XMLHttpRequest', xhrThrough(fetchMock));
  return { calls, fetchMock };
}

/**
 * A test signed in (`signIn`) and the fake server, which answers GET /api/user/current with the
 * signed-in person besides `routes`. Returns the calls made and the sign-in's data.
 */
export function signedInApi(role: 'admin' | 'user', accessType: AccessType, routes: MockRoutes = {}) {
  const data = signIn(role, accessType);
  return { ...mockApi({ 'GET /api/user/current': { body: { data: data.user } }, ...routes }), data };
}

/**
 * XMLHttpRequest (uploads) through the same fake server: the request is recorded like a fetch,
 * its upload reports one progress event (all sent), and abort() cancels it.
 */
function xhrThrough(fetchMock: (input: string, init: RequestInit) => Promise<Response>) {
  return class MockXhr {
    method = 'GET';
    url = '';
    headers: Record<string, string> = {};
    status = 0;
    responseText = '';
    upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private controller = new AbortController();

    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    abort() {
      this.controller.abort();
    }
    send(body: XMLHttpRequestBodyInit | null) {
      const size =
        body instanceof FormData
          ? [...body.values()].reduce((n, v) => n + (v instanceof Blob ? v.size : String(v).length), 0)
          : 0;
      fetchMock(this.url, {
        method: this.method,
        headers: this.headers,
        body,
        signal: this.controller.signal,
      }).then(
        async (response) => {
          this.upload.onprogress?.({ loaded: size, total: size, lengthComputable: true } as ProgressEvent);
          this.status = response.status;
          this.responseText = await response.text();
          this.onload?.();
        },
        () => (this.controller.signal.aborted ? this.onabort?.() : this.onerror?.()),
      );
    }
  };
}
