import { allEndpoints, buildPath } from '@quire/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from './app.js';
import { bearer } from './factories.js';
import { adminApp, person, type SeededUser, seed } from './seed.js';

// Bad input never crashes: every call of the contract, fed malformed params, bodies and
// content types by a signed-in Company Admin, answers 4xx with a message — never a 500.

let t: TestContext;
let admin: SeededUser;
let token: string;
beforeAll(async () => {
  ({ t, admin } = await adminApp('COMPANY ADMIN'));
  ({ token } = admin);
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

/** Creates a General staff user as the Company Admin, from a valid body changed by `over`. */
const createUserWith = (over: Record<string, unknown>) =>
  t.app.inject({
    method: 'POST',
    url: '/api/users/createUser',
    headers: bearer(token),
    payload: {
      username: 'linebreak',
      email: 'linebreak@example.test',
      first_name: 'Nia',
      last_name: 'O',
      password: 'Quiet-Lantern-River-8',
      role: 'user',
      access_type: 'General staff',
      ...over,
    },
  });

describe('control characters', () => {
  // A NUL reached PostgreSQL as a 500, before sign-in too. The contract's string schemas
  // refuse it (and every other control character) as a 400 naming the field.
  const expect400 = async (opts: InjectOptions, path: string) => {
    const res = await t.app.inject(opts);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toContainEqual({ path, message: 'Remove the invisible control characters' });
  };

  it('refuses a NUL in the sign-in username, before anyone is signed in', () =>
    expect400(
      {
        method: 'POST',
        url: '/api/login',
        payload: { username: 'adm\u0000in', password: 'x', role: 'admin' },
      },
      'body.username',
    ));

  it('refuses a NUL in a search, a name, a group field and client error data', async () => {
    await expect400(
      { method: 'GET', url: '/api/users/all?search=a%00b', headers: bearer(token) },
      'query.search',
    );
    await expect400(
      {
        method: 'POST',
        url: '/api/create_group',
        headers: bearer(token),
        payload: { name: 'Team', description: 'one\u0000two' },
      },
      'body.description',
    );
    await expect400(
      { method: 'POST', url: '/api/create_group', headers: bearer(token), payload: { name: 'T\u0000' } },
      'body.name',
    );
    await expect400(
      { method: 'POST', url: '/v1/log/error', payload: { data: { message: 'boom', stack: ['a\u0000'] } } },
      'body.data',
    );
    const errors = await t.db.clientError.count();
    expect(errors).toBe(0);
  });

  it('refuses line breaks in a name (they would reach e-mails), naming the field', async () => {
    const res = await createUserWith({ first_name: 'Nia\r\nClick https://evil.example' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { path: 'body.first_name', message: 'Use a single line, without line breaks' },
    ]);
  });
});

describe('validation messages', () => {
  it('word every problem for people, never in zod’s own terms', async () => {
    const res = await createUserWith({
      username: '---',
      email: 'x@example.test',
      first_name: 'x'.repeat(101),
      last_name: 'L',
      role: 'boss',
      group_ids: 'all',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { path: 'body.username', message: 'Start with a letter or a digit' },
      { path: 'body.first_name', message: 'Use at most 100 characters' },
      { path: 'body.role', message: 'Choose one of: admin, user' },
      { path: 'body.group_ids', message: 'Give a list' },
    ]);
    expect(res.body).not.toMatch(/Too big|Invalid input|expected (string|array)/);
  });
});

// "\ud800" is valid JSON but not text: PostgreSQL refuses it wherever it is stored or audited.
const LONE = '"a\\ud800b"'; // the JSON spelling, as a client sends it

describe('a lone UTF-16 surrogate in a JSON body', () => {
  // The licence calls are the vendor admin's; every other one the Company Admin may call.
  let vendor: string;
  beforeAll(async () => {
    ({ token: vendor } = await person(t, { accessType: 'DATAMAX ADMIN' }));
  });
  const writes = allEndpoints().filter(
    (e) => e.def.method !== 'GET' && !['auth.logout', 'auth.clear2fa'].includes(e.operationId),
  );
  it.each(writes.map((e) => [e.operationId, e.def] as const))(
    '%s refuses it with a 400 naming the field',
    async (_id, def) => {
      const url = def.path.includes('{') ? badParams(def.path, '1') : def.path;
      const res = await t.app.inject({
        method: def.method,
        url,
        payload: `{"name":${LONE},"nested":{"list":["ok",${LONE}]}}`,
        headers: {
          ...bearer(typeof def.guard === 'object' && def.guard.area === 'licence' ? vendor : token),
          'content-type': 'application/json',
        },
      });
      expect(res.statusCode, `${def.method} ${url}: ${res.body}`).toBe(400);
      expect(res.json().errors[0]).toEqual({
        path: 'body.name',
        message: expect.stringMatching(/not valid text/),
      });
    },
  );

  const send = (url: string, payload: string, auth = true) =>
    t.app.inject({
      method: 'POST',
      url,
      payload,
      headers: { ...(auth ? bearer(token) : {}), 'content-type': 'application/json' },
    });

  it('sign-in, the client error report and a file rename answer 400 and store nothing', async () => {
    const events = await t.db.auditEvent.count();
    const login = await send('/api/login', `{"username":${LONE},"password":"x","role":"user"}`, false);
    expect(login.statusCode).toBe(400);
    expect(login.json().errors[0].path).toBe('body.username');

    const reports = await t.db.clientError.count();
    const report = await send('/v1/log/error', `{"data":{"message":${LONE}}}`);
    expect(report.statusCode).toBe(400);
    expect(report.json().errors[0].path).toBe('body.data.message');
    expect(await t.db.clientError.count()).toBe(reports);

    const { file } = (
      await seed(t, {
        categories: { surrogates: { name: 'Surrogates' } },
        files: { file: { owner: admin, category: 'surrogates', name: 'kept.txt' } },
      })
    ).files;
    const rename = await send('/api/edit-file-name', `{"file_id":${file.id},"name":${LONE}}`);
    expect(rename.statusCode).toBe(400);
    expect(rename.json().errors[0].path).toBe('body.name');
    expect((await t.db.file.findUniqueOrThrow({ where: { id: file.id } })).name).toBe('kept.txt');
    // Nothing was written, the audit trail included; a surrogate pair (an emoji) is text.
    expect(await t.db.auditEvent.count()).toBe(events);
    const emoji = await send('/api/edit-file-name', `{"file_id":${file.id},"name":"ok \\ud83d\\ude00.txt"}`);
    expect(emoji.statusCode).toBe(200);
  });
});
