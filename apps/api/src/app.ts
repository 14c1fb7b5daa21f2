import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import { poolOf } from '@quire/db';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyRequest,
  LogController,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  ResponseSerializationError,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import pino from 'pino';
import type { Config } from './config.js';
import { attachJobRunner } from './jobs.js';
import { type Actor, audit } from './lib/audit.js';
import { auditKeyOf, keyAuditPool } from './lib/audit-chain.js';
import { type Background, createBackground } from './lib/background.js';
import { createBlobStore } from './lib/blob-store.js';
import type { Deps } from './lib/deps.js';
import { AppError, type FieldError, systemFailure } from './lib/errors.js';
import { healthRoute } from './lib/health.js';
import { ObjectGuards } from './lib/object-guards.js';
import { openBlobStore } from './lib/open-blob-store.js';
import { enforceReceiveRate } from './lib/receive-rate.js';
import { confirmSession } from './lib/route.js';
import { loadSecretKey } from './lib/secrets.js';
import { QUIRE_CSP, securityHeaders } from './lib/security-headers.js';
import { bearerToken } from './lib/session.js';
import { sessionsSeen } from './lib/session-ahead.js';
import { createThrottle, type Throttle } from './lib/throttle.js';
import { registerDocumentGuards } from './lib/visibility.js';
import { resolveSession } from './modules/account/session.service.js';
import { auditModule } from './modules/audit/audit.routes.js';
import { keyChainOnStart } from './modules/audit/audit.service.js';
import { authModule } from './modules/auth/auth.routes.js';
import { backupModule } from './modules/backup/backup.routes.js';
import { categoryModule } from './modules/category/category.routes.js';
import { categoryFilesModule } from './modules/category/category-files.routes.js';
import { categoryWorkflowModule } from './modules/category/category-workflow.routes.js';
import { dashboardAndSearchModule } from './modules/dashboard-and-search/dashboard-and-search.routes.js';
import { emailModule } from './modules/email/email.routes.js';
import { fileModule } from './modules/file/file.routes.js';
import { fileWorkflowModule } from './modules/file/file-workflow.routes.js';
import { fileActionsModule } from './modules/file-actions/file-actions.routes.js';
import { fileActionsWorkflowModule } from './modules/file-actions/file-actions-workflow.routes.js';
import { fileBulkModule } from './modules/file-bulk/file-bulk.routes.js';
import { groupModule } from './modules/group/group.routes.js';
import { intakeModule } from './modules/intake/intake.routes.js';
import { licenceGate } from './modules/licence/licence.gate.js';
import { licenceModule } from './modules/licence/licence.routes.js';
import { metadataModule } from './modules/metadata/metadata.routes.js';
import { notificationModule } from './modules/notification/notification.routes.js';
import { previewModule } from './modules/preview/preview.routes.js';
import { retentionModule } from './modules/retention/retention.routes.js';
import { savedViewModule } from './modules/saved-view/saved-view.routes.js';
import { settingsModule } from './modules/settings/settings.routes.js';
import { setupModule } from './modules/setup/setup.routes.js';
import { trashModule } from './modules/trash/trash.routes.js';
import { userModule } from './modules/user/user.routes.js';
import { valueListModule } from './modules/value-list/value-list.routes.js';
import { workflowModule } from './modules/workflow/workflow.routes.js';
import { registerOpenApi } from './openapi.js';
import { notFoundHandler, registerWeb } from './web.js';

export interface AppOptions {
  config: Config;
  db: Deps['db'];
  now?: () => Date;
  /** Serve the built web client (off in API tests). */
  serveWeb?: boolean;
  /** Where the log goes (tests read it); default stdout. */
  logStream?: { write(line: string): void };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Work still running after its call was answered; `app.background.drain()` waits for it. */
    background: Background;
  }
}

/** A request as the log shows it: the path without its query string (reset links carry tokens). */
function requestForLog(req: FastifyRequest) {
  return {
    method: req.method,
    url: req.url.split('?')[0],
    host: req.host,
    remoteAddress: req.ip,
  };
}

const GENERIC_500 = 'Something went wrong on our side. Please try again later.';

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  // Logs go to stdout asynchronously (written in batches by sonic-boom, flushed at close and
  // every half second): a synchronous write per line cost a fifth of a busy server's time.
  const logDestination = options.logStream
    ? undefined
    : pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const logFlush = logDestination ? setInterval(() => logDestination.flush(), 500).unref() : undefined;
  const app = Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'body.password'],
      serializers: { req: requestForLog },
      stream: options.logStream ?? logDestination,
    },
    // One line per request, when it is answered (below), rather than Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) => (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || randomUUID(),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // A connection that sends nothing for this long is closed: a stalled upload ends, its
    // temp file is dropped. Large uploads are bounded by MAX_UPLOAD_BYTES, not by time.
    connectionTimeout: config.REQUEST_IDLE_TIMEOUT_MS,
    requestTimeout: 0,
    // Every route validates and answers through the contract's zod schemas (set below), so
    // Fastify's own compilers are never asked for: given these, Fastify does not load Ajv
    // and fast-json-stringify at all (0.2 s of a start, and their code kept in memory).
    schemaController: {
      compilersFactory: {
        buildValidator: () => validatorCompiler as never,
        buildSerializer: () => serializerCompiler as never,
      },
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // A body that trickles in (a byte every few seconds) is ended, not only one that stops.
  enforceReceiveRate(app, {
    minBytesPerSec: config.REQUEST_MIN_BYTES_PER_SEC,
    graceMs: config.REQUEST_MIN_RATE_GRACE_MS,
  });

  const deps: Deps = {
    db: options.db,
    config,
    log: app.log,
    now: options.now ?? (() => new Date()),
    blobs: openBlobStore(config),
    ...(config.backupDir ? { backups: createBlobStore(config.backupDir) } : {}),
    secretKey: loadSecretKey(config.APP_SECRET, config.dataDir),
    objectGuards: new ObjectGuards(),
    background: createBackground(app.log),
  };
  app.decorate('deps', deps);
  // Every connection seals the audit events it writes with the audit key (decision 015).
  keyAuditPool(poolOf(deps.db), auditKeyOf(deps.secretKey), (err) =>
    app.log.error({ err }, 'Could not give a database connection the audit key'),
  );
  app.addHook('onReady', () => keyChainOnStart(deps));
  registerDocumentGuards(deps);
  app.decorate('background', deps.background);
  // Closing waits for work still running after its answer (a reset mail being queued).
  app.addHook('onClose', () => deps.background.drain());
  app.addHook('onResponse', async (req, reply) => {
    req.log.info(
      {
        method: req.method,
        url: req.url.split('?')[0],
        statusCode: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });
  app.addHook('onClose', async () => {
    clearInterval(logFlush);
    try {
      logDestination?.flushSync();
    } catch {
      // a write still in flight finishes on its own
    }
  });
  await deps.blobs.sweepTemp();

  const headers = securityHeaders(QUIRE_CSP);
  await app.register(rateLimit, { global: false, hook: 'preHandler' });
  // After the licence expires, calls that write are refused (sign-in, reads, downloads pass).
  app.addHook('preHandler', licenceGate(deps));
  // Uploads stream through their handler (req.parts()); each call sets its own size limits.
  await app.register(multipart, { limits: { fields: 20, fieldSize: 64 * 1024, parts: 50 } });

  app.decorateRequest('auth', null);
  // Answers about people and sessions (a sign-in token, user lists) are never cached; file
  // downloads and the web client set their own caching.
  app.addHook('onSend', async (_req, reply, payload) => {
    if (!reply.hasHeader('cache-control') && String(reply.getHeader('content-type') ?? '').includes('json'))
      reply.header('cache-control', 'no-store');
    return payload;
  });
  app.decorateRequest('sessionCheck', null);
  const seen = sessionsSeen();
  app.addHook('onRequest', async (req, reply) => {
    reply.headers(headers).header('x-request-id', req.id);
    const token = bearerToken(req.headers.authorization);
    if (!token) return;
    const read = resolveSession(deps, token).then((auth) => {
      seen.note(token, auth);
      return auth;
    });
    // A read-only call by a session resolved a moment ago starts as that session while it is
    // read again; lib/route.ts confirmSession holds the answer until the read confirms it.
    const ahead = req.routeOptions.config?.readsOnly ? seen.recent(token) : undefined;
    if (!ahead) {
      req.auth = await read;
      return;
    }
    req.auth = ahead;
    req.sessionCheck = read;
    read.catch(() => {}); // awaited by confirmSession, which answers its failure
  });

  // Anonymous refusals are audited up to 30 a minute per address, so a flood of bad tokens
  // cannot grow the audit table without bound; refusals of signed-in users and failed
  // sign-ins always are.
  const anonymousRefusals = createThrottle(30, 60_000);
  app.setErrorHandler(async (error: FastifyError, req, reply) => {
    // A call started ahead of its session's read answers nothing before the read: a session
    // that ended since is refused (401) whatever the call met. (Such calls only read, so
    // their other errors, about the input, stand as the session now is.)
    let refusal: FastifyError = error;
    try {
      await confirmSession(req);
    } catch (err) {
      refusal = err as FastifyError;
    }
    const actor = { userId: req.auth?.userId ?? null, ip: req.ip };
    const body = await toErrorBody(refusal, deps, actor, req, anonymousRefusals);
    return reply.status(body.status).send(body.payload);
  });
  app.get('/api/health', { schema: { hide: true } }, healthRoute(deps));
  attachJobRunner(app, deps);
  if (config.QUIRE_ROLE === 'worker') {
    // A worker process answers only /api/health (for container health checks).
    app.setNotFoundHandler(notFoundHandler(false));
    return app;
  }
  await registerOpenApi(app, config.publicUrl);
  await app.register(authModule(deps));
  await app.register(emailModule(deps));
  await app.register(userModule(deps));
  await app.register(groupModule(deps));
  await app.register(setupModule(deps));
  await app.register(categoryModule(deps));
  await app.register(categoryWorkflowModule(deps));
  await app.register(metadataModule(deps));
  await app.register(valueListModule(deps));
  await app.register(fileModule(deps));
  await app.register(fileWorkflowModule(deps));
  await app.register(fileActionsModule(deps));
  await app.register(fileActionsWorkflowModule(deps));
  await app.register(fileBulkModule(deps));
  await app.register(categoryFilesModule(deps));
  await app.register(trashModule(deps));
  await app.register(notificationModule(deps));
  await app.register(workflowModule(deps));
  await app.register(dashboardAndSearchModule(deps));
  await app.register(previewModule(deps));
  await app.register(savedViewModule(deps));
  await app.register(retentionModule(deps));
  await app.register(intakeModule(deps));
  await app.register(auditModule(deps));
  await app.register(licenceModule(deps));
  await app.register(settingsModule(deps));
  await app.register(backupModule(deps));
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
  anonymousRefusals: Throttle,
): Promise<ErrorReply> {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const context = error.validationContext ?? 'body';
    const where = context === 'querystring' ? 'query' : context;
    const errors = error.validation.map((v) => ({
      path: [
        where,
        ...String(v.instancePath ?? '')
          .split('/')
          .filter(Boolean),
      ].join('.'),
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
    if (error.refusal) await recordRefusal(deps, actor, error, req, anonymousRefusals);
    return {
      status: error.statusCode,
      payload: {
        message: error.message,
        code: error.code,
        ...(error.errors ? { errors: error.errors } : {}),
      },
    };
  }
  const failure = systemFailure(error);
  if (failure) {
    req.log.error({ err: error }, failure.code);
    return { status: failure.statusCode, payload: { message: failure.message, code: failure.code } };
  }
  if (error instanceof ResponseSerializationError) {
    req.log.error({ err: error, issues: error.cause?.issues }, 'response did not match its contract');
    return { status: 500, payload: { message: GENERIC_500, code: 'internal' } };
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code = status === 429 ? 'rate_limited' : (error.code ?? 'bad_request');
    const message =
      status === 429
        ? 'Too many attempts. Please wait a minute and try again.'
        : error.message || 'Bad request';
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
  anonymousRefusals: Throttle,
) {
  if (error.audited) return;
  if (actor.userId === null && !anonymousRefusals.allow(actor.ip ?? '')) return;
  try {
    await audit(deps.db, actor, {
      type: 'security',
      action:
        error.statusCode === 401
          ? 'access.unauthenticated'
          : error.statusCode === 404
            ? 'access.not_found'
            : 'access.denied',
      message: `${req.method} ${req.url.split('?')[0]}: ${error.message}`,
      details: {
        code: error.code,
        method: req.method,
        path: req.url.split('?')[0] ?? '',
      },
    });
  } catch (err) {
    req.log.error({ err }, 'could not audit a refused call');
  }
}
