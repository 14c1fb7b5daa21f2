import {
  canAccess,
  type Data,
  type EndpointDef,
  envelope,
  type Guard,
  type Params,
  toRoutePath,
  ZErrorBody,
} from '@quire/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import { z } from 'zod';
import { admission, admittedFile } from './admission.js';
import { AREA_VERBS } from './area-verbs.js';
import type { Actor } from './audit.js';
import type { Deps } from './deps.js';
import { forbidden, invalidInput, notAuthenticated, twoFactorRequired } from './errors.js';
import { refuseLoneSurrogates } from './lone-surrogates.js';
import { missingFile, openUpload, type UploadedFile, uploadError } from './multipart.js';
import type { AuthContext } from './session.js';
import { sameCaller } from './session-ahead.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's dependencies (buildApp), for the route pipeline. */
    deps: Deps;
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    /** The session's read, when a read-only call started ahead of it (lib/session-ahead.ts). */
    sessionCheck: Promise<AuthContext | null> | null;
  }
  interface FastifyContextConfig {
    guard?: Guard;
    /** The call only reads: it may start ahead of its session's read (lib/session-ahead.ts). */
    readsOnly?: boolean;
  }
}

type QueryOut<E extends EndpointDef> = E['query'] extends z.ZodType ? z.infer<E['query']> : undefined;
type BodyOut<E extends EndpointDef> = E['body'] extends z.ZodType ? z.infer<E['body']> : undefined;

export interface HandlerInput<E extends EndpointDef> {
  params: Params<E>;
  query: QueryOut<E>;
  body: BodyOut<E>;
  /** The signed-in session; null only on public calls. */
  auth: E['guard'] extends 'public' ? AuthContext | null : AuthContext;
  /** Who acts, for services and their audit events. */
  actor: Actor;
  /**
   * The file parts of a multipart call (entries with `upload`), after its fields were
   * validated as `body`. Read each file's stream to its end (into the blob store:
   * storeUpload) before taking the next; the first is there (a required upload without one
   * was already refused). An object guard is checked while they stream in (lib/admission.ts):
   * a file's stream ends only once it passed, and the store keeps nothing before then.
   */
  files: AsyncIterable<UploadedFile>;
  req: FastifyRequest;
  reply: FastifyReply;
}

/** A JSON call returns `{ message?, data }`; a file call sends on `reply` and returns it. */
export type HandlerResult<E extends EndpointDef> = E['produces'] extends 'file'
  ? FastifyReply
  : { message?: string; data: Data<E> };

export type Handler<E extends EndpointDef> = (input: HandlerInput<E>) => Promise<HandlerResult<E>>;

export interface RouteExtras {
  /** Per-route rate limit (@fastify/rate-limit), e.g. on sign-in. */
  rateLimit?: { max: number; timeWindow: number | string; keyGenerator?: (req: FastifyRequest) => string };
  bodyLimit?: number;
  /** Largest file a multipart call takes (default MAX_UPLOAD_BYTES): larger is a 413. */
  maxUploadBytes?: number;
  /**
   * The call only reads and writes nothing (a list, a filter, a search): by a session this
   * server resolved a moment ago it may start ahead of the session's read, and answers once
   * the session is confirmed (lib/session-ahead.ts); its object guard, if any, runs beside
   * its handler and is asked again when the caller turned out to have changed. Not for uploads.
   */
  readsOnly?: boolean;
}

export type HandlerSpec<E extends EndpointDef> = Handler<E> | ({ handler: Handler<E> } & RouteExtras);

/** `handler` for a call that only reads: it may start ahead of its session's read (RouteExtras.readsOnly). */
export function readsOnly<E extends EndpointDef>(handler: Handler<E>): HandlerSpec<E> {
  return { readsOnly: true, handler };
}

/** The error answers a route can give: the common ones, and those its entry makes possible. */
function errorResponses(def: EndpointDef, extras: RouteExtras) {
  return {
    400: ZErrorBody,
    // A public call refuses too: sign-in's wrong credentials (401), a sign-up turned off or an
    // account that may not sign in (403).
    401: ZErrorBody,
    403: ZErrorBody,
    404: ZErrorBody,
    409: ZErrorBody,
    // A body past its size limit (Fastify's bodyLimit, or an upload's own).
    ...(def.method !== 'GET' ? { 413: ZErrorBody } : {}),
    ...(extras.rateLimit ? { 429: ZErrorBody } : {}),
    500: ZErrorBody,
    ...(def.upstream ? { 502: ZErrorBody } : {}),
  };
}

/** The guard of an entry, run before validation: 401 without a live session, 403 without the right. */
export function checkGuard(guard: Guard, req: FastifyRequest): void {
  if (guard === 'public') return;
  const auth = req.auth;
  if (!auth) throw notAuthenticated();
  if (guard === 'session') return;
  if (auth.twoFactorPending) throw twoFactorRequired();
  if (guard === 'signedIn') return;
  if (auth.role !== 'admin' || !canAccess(auth.accessType, guard.area, guard.access)) {
    throw forbidden(AREA_VERBS[guard.area][guard.access]);
  }
}

/**
 * For a call started ahead of its session's read (lib/session-ahead.ts): waits for the read,
 * and answers true when the session is still the caller the call ran as. Otherwise `req.auth`
 * becomes the session as it is now and the call's guard is checked again (a 401 or 403 is
 * thrown), and false means the call is to run again as that caller.
 */
export async function confirmSession(req: FastifyRequest): Promise<boolean> {
  const check = req.sessionCheck;
  if (!check) return true;
  req.sessionCheck = null;
  const ahead = req.auth;
  req.auth = await check;
  if (ahead && sameCaller(ahead, req.auth)) return true;
  checkGuard(req.routeOptions.config.guard ?? 'public', req);
  return false;
}

/**
 * Binds every entry of an area's contract to its handler. The handler map's keys are the
 * contract's, so an entry without a route (or a route without an entry) does not compile;
 * params, query and body are parsed by the entry's zod schemas and the response passes
 * through the entry's response schema inside the `{ message?, data }` envelope.
 */
export function defineRoutes<C extends Record<string, EndpointDef>>(
  area: string,
  entries: C,
  handlers: { [K in keyof C]: HandlerSpec<C[K]> },
) {
  return async function routes(app: FastifyInstance) {
    for (const [name, def] of Object.entries(entries) as Array<[keyof C & string, EndpointDef]>) {
      const spec = handlers[name] as HandlerSpec<EndpointDef> | undefined;
      if (!spec)
        throw new Error(`No handler for the contract entry ${area}.${name} (${def.method} ${def.path})`);
      const { handler, ...extras } = typeof spec === 'function' ? { handler: spec } : spec;
      app.route(toRouteOptions(app.deps, `${area}.${name}`, area, def, handler, extras));
    }
  };
}

const noFiles: AsyncIterable<UploadedFile> = { async *[Symbol.asyncIterator]() {} };

/** The text fields of a multipart call, validated like a JSON body (the file field left out). */
function fieldsSchema(def: EndpointDef): z.ZodType | undefined {
  const body = def.body;
  if (!body || !def.upload) return body;
  if (!(body instanceof z.ZodObject)) return body;
  const { [def.upload.field]: _file, ...fields } = body.shape;
  return z.object(fields);
}

function toRouteOptions(
  deps: Deps,
  operationId: string,
  area: string,
  def: EndpointDef,
  handler: Handler<EndpointDef>,
  extras: RouteExtras,
): RouteOptions {
  const errors = errorResponses(def, extras);
  const multipartFields = def.consumes === 'multipart' ? fieldsSchema(def) : undefined;
  const schema: FastifySchema & Record<string, unknown> = {
    operationId,
    summary: def.summary,
    tags: [area],
    security: def.guard === 'public' ? [] : [{ bearerAuth: [] }],
    response: def.produces === 'file' ? errors : { 200: envelope(def.response as z.ZodType), ...errors },
  };
  if (def.params) schema.params = def.params;
  if (def.query) schema.querystring = def.query;
  if (def.body && def.consumes !== 'multipart') schema.body = def.body;
  // What the OpenAPI document needs to describe a file answer or a multipart body (openapi.ts).
  if (def.produces === 'file') schema['x-quire-file'] = def.mediaType ?? 'application/octet-stream';
  if (def.consumes === 'multipart')
    schema['x-quire-multipart'] = {
      fields: multipartFields
        ? z.toJSONSchema(multipartFields, { io: 'input', unrepresentable: 'any' })
        : null,
      upload: def.upload ?? { field: 'file' },
    };

  const maxUploadBytes = extras.maxUploadBytes ?? deps.config.MAX_UPLOAD_BYTES;
  const objectGuard = def.object;
  // An upload's content would be stored before the session is confirmed.
  if (extras.readsOnly && def.consumes === 'multipart')
    throw new Error(`${operationId}: readsOnly is for calls without an upload`);
  /** The object guard's check, as the caller is now (req.auth). */
  const assertObject = async (req: FastifyRequest) => {
    if (objectGuard && req.auth) await deps.objectGuards.assert(objectGuard, req.auth, req);
  };
  /**
   * A call that only reads runs beside its object guard, and perhaps ahead of its session's
   * read (lib/session-ahead.ts); nothing is answered before both. As the session now is: an
   * ended one is refused (confirmSession), a changed caller is guarded and run again, and
   * otherwise the guard's refusal comes first, whatever the handler met meanwhile (a caller
   * who may not see the object learns nothing of it from the handler's errors).
   */
  const readOnlyRun = async <R>(req: FastifyRequest, run: () => Promise<R>): Promise<R> => {
    const refused = assertObject(req).then(
      () => undefined,
      (refusal: unknown) => ({ refusal }),
    );
    const ran = run().then(
      (value) => ({ value }),
      (failure: unknown) => ({ failure }),
    );
    const [guard, outcome] = await Promise.all([refused, ran]);
    if (!(await confirmSession(req))) {
      await assertObject(req);
      return run();
    }
    if (guard) throw guard.refusal;
    if ('failure' in outcome) throw outcome.failure;
    return outcome.value;
  };
  // An upload into a file or category: its checks run while its files stream in (admission.ts).
  const admitWhileStoring = def.consumes === 'multipart' && objectGuard !== undefined;

  return {
    method: def.method,
    url: toRoutePath(def.path),
    schema,
    config: {
      guard: def.guard,
      ...(extras.rateLimit ? { rateLimit: extras.rateLimit } : {}),
      ...(admitWhileStoring ? { admitWhileStoring } : {}),
      ...(extras.readsOnly ? { readsOnly: true } : {}),
    },
    ...(extras.bodyLimit ? { bodyLimit: extras.bodyLimit } : {}),
    // Before validation: an anonymous or unauthorised caller learns nothing about the body.
    // Then a JSON body holding a lone UTF-16 surrogate (not text) is refused, for every call.
    preValidation: async (req) => {
      checkGuard(def.guard, req);
      await refuseLoneSurrogates(req);
    },
    // After validation: may this caller act on this object? (multipart: once its fields are
    // read; a call that only reads: beside its handler, below)
    ...(objectGuard && def.consumes !== 'multipart' && !extras.readsOnly ? { preHandler: assertObject } : {}),
    handler: async (req, reply) => {
      let body: unknown = req.body;
      let files = noFiles;
      let drain: (() => Promise<void>) | undefined;
      let result: HandlerResult<EndpointDef>;
      let settled: Promise<void> | undefined;
      try {
        if (def.consumes === 'multipart') {
          // The request pipeline's deferred checks (admission.ts) come before a field error.
          if (admitWhileStoring) settled = admission(req);
          const upload = await openUpload(req, def.upload ?? { field: 'file' }, { maxBytes: maxUploadBytes });
          drain = upload.drain;
          const parsed = multipartFields ? multipartFields.safeParse(upload.fields) : null;
          if (parsed && !parsed.success) throw fieldErrors(parsed.error);
          body = parsed ? parsed.data : {};
          // Whatever the handler does with the files, it answers only once they were admitted.
          const admitted = admitWhileStoring
            ? admission(
                req,
                objectGuard && req.auth
                  ? deps.objectGuards.assert(objectGuard, req.auth, {
                      params: req.params,
                      query: req.query,
                      body,
                    })
                  : undefined,
              )
            : undefined;
          settled = admitted;
          const iterator = upload.files();
          const first = await iterator.next();
          if (first.done && def.upload?.required !== false) {
            await admitted;
            throw missingFile(def.upload?.field ?? 'file');
          }
          const admit = (part: UploadedFile) => (admitted ? admittedFile(part, admitted) : part);
          files = {
            async *[Symbol.asyncIterator]() {
              if (first.done) return;
              yield admit(first.value);
              for await (const part of iterator) yield admit(part);
            },
          };
        }
        const run = () =>
          handler({
            params: req.params as never,
            query: req.query as never,
            body: body as never,
            auth: req.auth as never,
            actor: { userId: req.auth?.userId ?? null, ip: req.ip },
            files,
            req,
            reply,
          });
        if (extras.readsOnly) result = await readOnlyRun(req, run);
        else result = await run();
        await settled;
      } catch (err) {
        if (def.consumes !== 'multipart') throw err;
        // Answer now and close the connection rather than read the rest of a refused upload.
        reply.header('connection', 'close');
        // A refused admission is the answer, whatever the handler met meanwhile: a caller who
        // may not see the file learns nothing of its state from a check the handler made.
        const refusal = settled
          ? await settled.then(
              () => undefined,
              (e: unknown) => e,
            )
          : undefined;
        throw uploadError(refusal ?? err, maxUploadBytes, def.upload?.max ?? 1);
      }
      // The handler may leave parts unread (a second file it does not take): drop them.
      await drain?.();
      if (def.produces === 'file') return result;
      const { message, data } = result as { message?: string; data: unknown };
      return message === undefined ? { data } : { message, data };
    },
  };
}

/** A zod failure of multipart fields, worded like the pipeline's 400 for a JSON body. */
function fieldErrors(error: z.ZodError) {
  const errors = error.issues.map((issue) => ({
    path: ['body', ...issue.path.map(String)].join('.'),
    message: issue.message,
  }));
  const first = errors[0];
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return invalidInput(first ? `${first.path.slice(5)}: ${first.message}${more}` : 'Invalid input', errors);
}
