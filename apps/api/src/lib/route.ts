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
import type { z } from 'zod';
import { AREA_VERBS } from './area-verbs.js';
import type { Actor } from './audit.js';
import { forbidden, notAuthenticated, twoFactorRequired } from './errors.js';
import type { AuthContext } from './session.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    guard?: Guard;
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
}

export type HandlerSpec<E extends EndpointDef> = Handler<E> | ({ handler: Handler<E> } & RouteExtras);

const errorResponses = {
  400: ZErrorBody,
  401: ZErrorBody,
  403: ZErrorBody,
  404: ZErrorBody,
  409: ZErrorBody,
};

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
      app.route(toRouteOptions(`${area}.${name}`, area, def, handler, extras));
    }
  };
}

function toRouteOptions(
  operationId: string,
  area: string,
  def: EndpointDef,
  handler: Handler<EndpointDef>,
  extras: RouteExtras,
): RouteOptions {
  const schema: FastifySchema & Record<string, unknown> = {
    operationId,
    summary: def.summary,
    tags: [area],
    security: def.guard === 'public' ? [] : [{ bearerAuth: [] }],
    response:
      def.produces === 'file'
        ? { ...errorResponses }
        : { 200: envelope(def.response as z.ZodType), ...errorResponses },
  };
  if (def.params) schema.params = def.params;
  if (def.query) schema.querystring = def.query;
  if (def.body && def.consumes !== 'multipart') schema.body = def.body;

  return {
    method: def.method,
    url: toRoutePath(def.path),
    schema,
    config: { guard: def.guard, ...(extras.rateLimit ? { rateLimit: extras.rateLimit } : {}) },
    ...(extras.bodyLimit ? { bodyLimit: extras.bodyLimit } : {}),
    // Before validation: an anonymous or unauthorised caller learns nothing about the body.
    preValidation: async (req) => checkGuard(def.guard, req),
    handler: async (req, reply) => {
      const result = await handler({
        params: req.params as never,
        query: req.query as never,
        body: req.body as never,
        auth: req.auth as never,
        actor: { userId: req.auth?.userId ?? null, ip: req.ip },
        req,
        reply,
      });
      if (def.produces === 'file') return result;
      const { message, data } = result as { message?: string; data: unknown };
      return message === undefined ? { data } : { message, data };
    },
  };
}
