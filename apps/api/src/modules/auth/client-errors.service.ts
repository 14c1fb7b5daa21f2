import type { TClientError } from '@quire/contract';
import type { Prisma } from '@quire/db';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { pageMeta } from '../../lib/paging.js';
import * as repo from './auth.repository.js';

// Errors the web client reports (POST /v1/log/error), and their list for Settings readers.
// What could be a credential never reaches the table: keys that name one are blanked, and so
// are the values of token-like query parameters in any URL (a reset link's token is live
// while Auditors read the list).

const SECRET_KEY = /pass(word)?|token|secret|authorization|cookie|otp/i;
/** Query parameters that may carry a credential: reset and verification tokens, codes, keys. */
const SECRET_PARAM = /token|code|secret|pass|key|sig|otp|auth|session/i;
const REDACTED = '[redacted]';

/**
 * `text` with the values of token-like query parameters (token, code, password, key, …) in
 * any URL it holds replaced by [redacted]; other text is returned as it is.
 */
function redactUrlParams(text: string): string {
  return text.replace(/([?&#])([^=&#\s]+)=([^&#\s]*)/g, (whole, sep: string, name: string) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // keep the raw name
    }
    return SECRET_PARAM.test(decoded) ? `${sep}${name}=${encodeURIComponent(REDACTED)}` : whole;
  });
}

/** A copy of reported data with anything that looks like a credential blanked out. */
function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[…]';
  if (typeof value === 'string') return redactUrlParams(value);
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? REDACTED : redact(v, depth + 1)]),
    );
  }
  return value;
}

function errorMessage(data: unknown): string {
  const raw =
    typeof data === 'string'
      ? data
      : data && typeof data === 'object' && typeof (data as { message?: unknown }).message === 'string'
        ? (data as { message: string }).message
        : JSON.stringify(data);
  return (raw ?? '').trim().slice(0, 500) || 'Client error';
}

interface ClientErrorReport {
  data: unknown;
  userId: number | null;
  url: string | null;
  userAgent: string | null;
  ip: string | null;
}

export async function recordClientError(deps: Deps, report: ClientErrorReport, actor: Actor): Promise<void> {
  const data = redact(report.data);
  const fromData = data && typeof data === 'object' ? (data as { url?: unknown }).url : undefined;
  const rawUrl = typeof fromData === 'string' ? fromData : report.url;
  const url = rawUrl === null ? null : redactUrlParams(rawUrl).slice(0, 2000);
  const message = errorMessage(data);
  await deps.db.$transaction(async (tx) => {
    const row = await repo.createClientError(tx, {
      userId: report.userId,
      message,
      data: data as Prisma.InputJsonValue,
      url,
      userAgent: report.userAgent?.slice(0, 512) ?? null,
      ip: report.ip,
    });
    await audit(tx, actor, {
      type: 'client',
      action: 'client_error.reported',
      message: `The web client reported an error: ${message.slice(0, 120)}`,
      targetType: 'client_error',
      targetId: row.id,
    });
  });
}

export async function listClientErrors(deps: Deps, page: number, quantity: number) {
  const { total, rows } = await repo.listClientErrors(deps.db, page, quantity);
  const items: TClientError[] = rows.map((r) => ({
    id: r.id,
    user_id: r.userId,
    username: r.user?.username ?? null,
    message: r.message,
    data: r.data,
    url: r.url,
    user_agent: r.userAgent,
    ip: r.ip,
    created_at: r.createdAt.toISOString(),
  }));
  return { items, ...pageMeta({ page, quantity }, total) };
}
