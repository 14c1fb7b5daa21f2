import { allEndpoints, buildPath } from '@quire/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';
import { bearer, createUser, loginAs } from './factories.js';

// Bad input never crashes: every call of the contract, fed malformed params, bodies and
// content types by a signed-in Company Admin, answers 4xx with a message — never a 500.

let t: TestContext;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await loginAs(t.app, await createUser(t.db, { accessType: 'COMPANY ADMIN' }));
});
afterAll(() => t.close());

const badParams = (path: string, badId = 'abc') =>
  buildPath(
    path,
    Object.fromEntries(
      [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [name!, name === 'email' ? '%%%' : badId]),
    ),
  );

const garbage: Array<[string, { payload?: string; headers?: Record<string, string> }]> = [
  ['a JSON string', { payload: '"just a string"', headers: { 'content-type': 'application/json' } }],
  ['a JSON array', { payload: '[1,2,3]', headers: { 'content-type': 'application/json' } }],
  ['broken JSON', { payload: '{"a":', headers: { 'content-type': 'application/json' } }],
  ['plain text', { payload: 'hello', headers: { 'content-type': 'text/plain' } }],
  [
    'a broken multipart body',
    { payload: '--x\r\nnope', headers: { 'content-type': 'multipart/form-data; boundary=x' } },
  ],
];

describe('malformed requests', () => {
  // logout and clear2fa end the caller's own session, which the other calls need.
  const entries = allEndpoints().filter((e) => !['auth.logout', 'auth.clear2fa'].includes(e.operationId));
  it.each(entries.map((e) => [e.operationId, e.def] as const))('%s never answers 5xx', async (_id, def) => {
    // Path ids: not a number, and a number past PostgreSQL's integer (a 500 if it reached the query).
    const urls = def.path.includes('{')
      ? [badParams(def.path), badParams(def.path, '99999999999')]
      : [def.path];
    const sends: typeof garbage = def.method === 'GET' ? [['no body', {}]] : garbage;
    for (const url of urls) {
      for (const [label, extra] of sends) {
        const res = await t.app.inject({
          method: def.method,
          url,
          payload: extra.payload,
          headers: { ...bearer(token), ...(extra.headers ?? {}) },
        });
        expect(res.statusCode, `${def.method} ${url} with ${label}: ${res.body}`).toBeLessThan(500);
        if (res.statusCode >= 400)
          expect(res.json().message, `${def.method} ${url} with ${label}`).toEqual(expect.any(String));
      }
    }
  });
});
