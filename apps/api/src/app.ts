import { randomUUID } from 'node:crypto';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  ResponseSerializationError,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { type Actor, audit } from './lib/audit.js';
import type { Deps } from './lib/deps.js';
import { createBlobStore } from './lib/blob-store.js';
import { AppError, type FieldError } from './lib/errors.js';
import { loadSecretKey } from './lib/secrets.js';
import { bearerToken, resolveSession } from './lib/session.js';
import { authModule } from './modules/auth/auth.routes.js';
import { userModule } from './modules/user/user.routes.js';
import { registerOpenApi } from './openapi.js';
import { notFoundHandler, registerWeb } from './web.js';

export interface AppOptions {
  config: Config;
  db: Deps['db'];
  now?: () => Date;
  /** Serve the built web client (off in API tests). */
  serveWeb?: boolean;
}

const GENERIC_500 = 'Something went wrong on our side. Please try again later.';

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'body.password'],
    },
    genReqId: (req) => (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || randomUUID(),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const deps: Deps = {
    db: options.db,
    config,
    log: app.log,
    now: options.now ?? (() => new Date()),
    blobs: createBlobStore(config.storageDir),
    secretKey: loadSecretKey(config.APP_SECRET, config.dataDir),
  };
  await deps.blobs.sweepTemp();

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  await app.register(rateLimit, { global: false, hook: 'preHandler' });

  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    const token = bearerToken(req.headers.authorization);
    if (token) req.auth = await resolveSession(deps, token);
  });

  app.setErrorHandler(async (error: FastifyError, req, reply) => {
    const body = await toErrorBody(error, deps, { userId: req.auth?.userId ?? null, ip: req.ip }, req);
    return reply.status(body.status).send(body.payload);
  });
  app.get('/api/health', { schema: { hide: true } }, async () => {
    await deps.db.$queryRaw`SELECT 1`;
    return { status: 'ok' };
  });
  await registerOpenApi(app);
  await app.register(authModule(deps));
  await app.register(userModule(deps));
  const webServed = options.serveWeb ? await registerWeb(app, config.webDist) : false;
  app.setNotFoundHandler(notFoundHandler(webServed));
  return app;
}

type ErrorReply = { status: number; payload: { message: string; code?: string; errors?: FieldError[] } };

async function toErrorBody(
  error: FastifyError,
  deps: Deps,
  actor: Actor,
  req: { method: string; url: string; log: Deps['log'] },
): Promise<ErrorReply> {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = error.validationContext ?? 'body';
    const errors = error.validation.map((v) => ({
      path: [where, ...String(v.instancePath ?? '').split('/').filter(Boolean)].join('.'),
      message: v.message ?? 'Invalid value',
    }));
    const first = errors[0];
    const field = first?.path.split('.').slice(1).join('.') || first?.path;
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    return {
      status: 400,
      payload: {
        message: first ? `${field}: ${first.message}${more}` : 'Invalid input',
        code: 'validation_failed',
        errors,
      },
    };
  }
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    return {
      status: 400,
      payload: {
        message: 'The request body is not valid JSON',
        code: 'invalid_json',
        errors: [{ path: 'body', message: 'Not valid JSON' }],
      },
    };
  }
  if (error instanceof AppError) {
    if (error.statusCode === 401 || error.statusCode === 403) {
      await recordRefusal(deps, actor, error, req);
    }
    return {
      status: error.statusCode,
      payload: { message: error.message, code: error.code, ...(error.errors ? { errors: error.errors } : {}) },
    };
  }
  if (error instanceof ResponseSerializationError) {
    req.log.error({ err: error, issues: error.cause?.issues }, 'response did not match its contract');
    return { status: 500, payload: { message: GENERIC_500, code: 'internal' } };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = status === 429 ? 'rate_limited' : (error.code ?? 'bad_request');
    const message =
      status === 429 ? 'Too many attempts. Please wait a minute and try again.' : error.message || 'Bad request';
    return { status, payload: { message, code } };
  }
  req.log.error({ err: error }, 'unhandled error');
  return { status: 500, payload: { message: GENERIC_500, code: 'internal' } };
}

/** Every refused call is an audit event of its own (the refused change itself wrote nothing). */
async function recordRefusal(
  deps: Deps,
  actor: Actor,
  error: AppError,
  req: { method: string; url: string; log: Deps['log'] },
) {
  try {
    await audit(deps.db, actor, {
      type: 'security',
      action: error.statusCode === 401 ? 'access.unauthenticated' : 'access.denied',
      message: `${req.method} ${req.url.split('?')[0]}: ${error.message}`,
      details: { code: error.code, method: req.method, path: req.url.split('?')[0] ?? '', ...error.auditDetails },
    });
  } catch (err) {
    req.log.error({ err }, 'could not audit a refused call');
  }
}
