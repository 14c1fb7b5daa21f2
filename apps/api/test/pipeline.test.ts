import { readFileSync } from 'node:fs';
import path from 'node:path';
import { allEndpoints, toRoutePath } from '@quire/contract';
import { rootDir } from '@quire/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../src/config.js';
import { createTestApp, type TestContext } from './app.js';
import { bearer, TEST_PASSWORD } from './factories.js';
import { person } from './seed.js';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const specCalls = readFileSync(path.join(rootDir, 'docs/spec/endpoints.tsv'), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => {
    const [method, specPath, area] = line.split('\t');
    return { method: method!, path: specPath!, area: area! };
  });

describe('the contract', () => {
  it('holds each call once, and nothing but spec calls and marked extensions', () => {
    const keys = allEndpoints().map((e) => `${e.def.method} ${e.def.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const spec = new Set(specCalls.map((c) => `${c.method} ${c.path}`));
    const unmarked = allEndpoints().filter(
      (e) => !e.def.extension && !spec.has(`${e.def.method} ${e.def.path}`),
    );
    expect(unmarked.map((e) => e.operationId)).toEqual([]);
    const markedButInSpec = allEndpoints().filter(
      (e) => e.def.extension && spec.has(`${e.def.method} ${e.def.path}`),
    );
    expect(markedButInSpec.map((e) => e.operationId)).toEqual([]);
  });

  it('puts each spec call in the area the spec gives it', () => {
    const areaOf = new Map(specCalls.map((c) => [`${c.method} ${c.path}`, c.area]));
    for (const { area, def } of allEndpoints()) {
      const specArea = areaOf.get(`${def.method} ${def.path}`);
      if (specArea) expect(specArea.replace(/-/g, ''), `${def.method} ${def.path}`).toBe(area.toLowerCase());
    }
  });

  it('has a route for every entry', () => {
    for (const { def } of allEndpoints()) {
      expect(
        t.app.hasRoute({ method: def.method, url: toRoutePath(def.path) }),
        `${def.method} ${def.path}`,
      ).toBe(true);
    }
  });

  it('publishes every entry in /api/openapi.json with its operationId', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const ids = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap(
      (ops) => Object.values(ops).map((op) => op.operationId),
    );
    for (const { operationId } of allEndpoints()) expect(ids).toContain(operationId);
  });
});

describe('unknown paths', () => {
  it.each(['/api/nothing-here', '/account/nothing', '/user/nothing', '/v1/nothing'])(
    'GET %s is a JSON 404, never HTML',
    async (url) => {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.json().message).toContain(url);
    },
  );
});

describe('security headers', () => {
  it('sends a content security policy and a request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/check-session' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });
});

describe('caching', () => {
  it('answers JSON with Cache-Control: no-store (a sign-in token, user lists)', async () => {
    const admin = await person(t, { accessType: 'COMPANY ADMIN', signIn: false });
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { username: admin.username, password: TEST_PASSWORD, role: 'admin' },
    });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.headers['cache-control']).toBe('no-store');
    const token = signIn.json().data.access_token;
    for (const url of ['/api/users/all', '/api/all_user', '/api/logged-in-user', '/api/nothing-here']) {
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    // A download sets its own.
    const template = await t.app.inject({
      method: 'GET',
      url: '/api/users/import-template',
      headers: bearer(token),
    });
    expect(template.headers['cache-control']).toBeUndefined();
  });
});

describe('the log', () => {
  it('shows request paths without their query strings (a reset link carries a live token)', async () => {
    const lines: string[] = [];
    const logged = await createTestApp(
      { LOG_LEVEL: 'info' },
      { logStream: { write: (line) => void lines.push(line) } },
    );
    try {
      await logged.app.inject({
        method: 'GET',
        url: '/reset-password?token=live-secret-token&email=a%40b.c',
      });
      await logged.app.inject({ method: 'GET', url: '/api/health?token=another-secret' });
      const text = lines.join('');
      expect(text).toContain('"url":"/reset-password"');
      expect(text).toContain('"url":"/api/health"');
      expect(text).not.toContain('live-secret-token');
      expect(text).not.toContain('another-secret');
      expect(text).not.toContain('a%40b.c');
    } finally {
      await logged.close();
    }
  });
});

describe('configuration', () => {
  it('the README table documents every variable', () => {
    const readme = readFileSync(path.join(rootDir, 'README.md'), 'utf8');
    for (const name of Object.keys(configSchema.shape))
      expect(readme, name).toMatch(new RegExp(`^\\| \`${name}\` +\\| [^|]+\\| [^|]*\\S[^|]*\\|$`, 'm'));
  });
});
