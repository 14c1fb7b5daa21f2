import { allEndpoints, buildPath } from '@quire/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { TestContext } from './app.js';
import { objectKeys, sampleOf } from './contract-samples.js';
import { bearer } from './factories.js';
import { type SeededUser, seededApp } from './seed.js';

// Bad input never crashes, field by field: every call of the contract that takes a JSON body
// or a query, sent by a signed-in Company Admin and by General staff (their rights are another
// path) as a valid sample with ONE field replaced by
// a hostile value (wrong types, out-of-range numbers, a 70,000-character string, injection
// text, an operator object, an impossible date), never answers 5xx; every 4xx has a message
// and every 400 its field errors. (robustness.test.ts breaks whole bodies; this one breaks
// each field.) The one 5xx allowed is the 502 of a call marked `upstream` (a connection test):
// the remote server it was asked to reach failed, which is its answer. Every status answered
// is one the call's OpenAPI operation lists.

const HOSTILE: unknown[] = [
  null,
  -1,
  2 ** 31,
  1e308,
  1.5,
  '',
  'x'.repeat(70_000),
  [],
  {},
  true,
  "1' OR '1'='1",
  '../../etc/passwd',
  '\u202e\ud83d\ude00',
  [null],
  { $gt: '' },
  '2026-13-45',
  'NaN',
];

let t: TestContext;
/** The statuses each call's OpenAPI operation documents, by operationId. */
let documented: Map<string, Set<number>>;
let callers: Record<'Company Admin' | 'General staff', SeededUser>;
beforeAll(async () => {
  const world = await seededApp({
    users: { admin: { accessType: 'COMPANY ADMIN' }, staff: { accessType: 'General staff' } },
    categories: { shared: { grants: { staff: ['upload'] } } },
  });
  t = world.t;
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
    paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
  };
  documented = new Map(
    Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).map(
        (op) => [op.operationId, new Set(Object.keys(op.responses).map(Number))] as const,
      ),
    ),
  );
  callers = { 'Company Admin': world.users.admin, 'General staff': world.users.staff };
});
afterAll(() => t.close());

/** The first problem of one answer, or null when it is a proper answer. */
function problemOf(
  res: { statusCode: number; body: string },
  upstream: boolean,
  statuses: Set<number> | undefined,
): string | null {
  if (!statuses?.has(res.statusCode)) return `${res.statusCode}, which its OpenAPI operation does not list`;
  let json: { message?: unknown; errors?: unknown; code?: unknown } = {};
  try {
    json = JSON.parse(res.body);
  } catch {
    // a file answer (2xx) is not JSON
  }
  if (res.statusCode === 502 && upstream) return null;
  if (res.statusCode >= 500) return `${res.statusCode} ${res.body.slice(0, 200)}`;
  if (res.statusCode < 400) return null;
  if (typeof json.message !== 'string') return `${res.statusCode} without a message`;
  if (res.statusCode === 400 && !Array.isArray(json.errors))
    return `400 without field errors: ${json.message}`;
  return null;
}

const queryString = (query: Record<string, unknown> | undefined) =>
  query
    ? `?${new URLSearchParams(
        Object.entries(query).map(([k, v]): [string, string] => [
          k,
          typeof v === 'string' ? v : JSON.stringify(v),
        ]),
      )}`
    : '';

/** The paths below the top level of `value`, down to three levels (a list's first item stands for all). */
function innerPaths(value: unknown, depth = 0): Array<Array<string | number>> {
  if (depth > 3 || value === null || typeof value !== 'object') return [];
  const children: Array<[string | number, unknown]> = Array.isArray(value)
    ? value.length
      ? [[0, value[0]]]
      : []
    : Object.entries(value);
  return children.flatMap(([key, child]) => [
    ...(depth > 0 ? [[key]] : []),
    ...innerPaths(child, depth + 1).map((rest) => [key, ...rest]),
  ]);
}

/** A deep copy of `value` with `replacement` at `path`. */
function replacedAt(value: Record<string, unknown>, path: Array<string | number>, replacement: unknown) {
  const copy = structuredClone(value);
  let at: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[path.at(-1)!] = replacement;
  return copy;
}

// logout and clear2fa end the caller's own session, which the other calls need; uploads are
// multipart (their fields are broken in robustness.test.ts and the upload tests).
const entries = allEndpoints().filter(
  (e) => !['auth.logout', 'auth.clear2fa'].includes(e.operationId) && e.def.consumes !== 'multipart',
);

describe('one hostile field at a time', () => {
  const cases = entries.flatMap((e) =>
    (['Company Admin', 'General staff'] as const).map((who) => [e.operationId, who, e.def] as const),
  );
  it.each(cases)('%s as %s never answers 5xx, nor a status it does not document', async (_id, who, def) => {
    const path = buildPath(
      def.path,
      Object.fromEntries([...def.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, '1'])),
    );
    const body = def.body ? (sampleOf(def.body as z.ZodType, true) as Record<string, unknown>) : undefined;
    const query = def.query ? (sampleOf(def.query as z.ZodType, true) as Record<string, unknown>) : undefined;
    const problems: string[] = [];
    const send = async (label: string, b: Record<string, unknown> | undefined, q = query) => {
      const res = await t.app.inject({
        method: def.method,
        url: path + queryString(q),
        headers: bearer(callers[who].token),
        ...(b && def.method !== 'GET' ? { payload: b } : {}),
      });
      const problem = problemOf(res, def.upstream === true, documented.get(_id));
      if (problem) problems.push(`${label}: ${problem}`);
    };
    const shown = (v: unknown) => JSON.stringify(v)?.slice(0, 24);
    for (const key of objectKeys(def.body as z.ZodType | undefined))
      for (const v of HOSTILE) await send(`body.${key}=${shown(v)}`, { ...body, [key]: v });
    // Inside: the fields of objects in the sample (a list's first item, an object's keys).
    for (const at of innerPaths(body))
      for (const v of HOSTILE) await send(`body.${at.join('.')}=${shown(v)}`, replacedAt(body!, at, v));
    for (const key of objectKeys(def.query as z.ZodType | undefined))
      for (const v of HOSTILE) await send(`query.${key}=${shown(v)}`, body, { ...query, [key]: v });
    expect(problems).toEqual([]);
  });
});
