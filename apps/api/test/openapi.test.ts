import { createConfig, lintFromString } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './app.js';

/** The parts of the OpenAPI document these tests read. */
interface Schema {
  type?: string;
  format?: string;
  required?: string[];
  properties: Record<string, Schema>;
}
interface Operation {
  requestBody: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content: Record<string, unknown> }>;
}
interface OpenApiDoc {
  servers: unknown;
  paths: Record<string, Record<'get' | 'post', Operation>>;
}

let t: TestContext;
let doc: OpenApiDoc;
const operation = (path: string, method: 'get' | 'post'): Operation => {
  const found = doc.paths[path]?.[method];
  if (!found) throw new Error(`${method} ${path} is not in the document`);
  return found;
};
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://quire.example.org' });
  doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
});
afterAll(() => t.close());

describe('/api/openapi.json', () => {
  it("lints clean under Redocly's recommended rules (the spec's own /user/current/ is the one exception)", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: 'openapi.json',
      config,
    });
    const found = problems
      .filter(
        (p) =>
          !(p.ruleId === 'no-path-trailing-slash' && p.location[0]?.pointer?.includes('~1user~1current~1')),
      )
      .map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`);
    expect(found).toEqual([]);
  });

  it('names the server it is served from', () => {
    expect(doc.servers).toEqual([{ url: 'https://quire.example.org', description: expect.any(String) }]);
  });

  it('declares a file answer with its media type, and a multipart body with the file as binary', () => {
    const template = operation('/api/users/import-template', 'get').responses['200'];
    expect(Object.keys(template?.content ?? {})).toEqual([
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ]);
    const upload = operation('/api/upload-user-signature', 'post');
    const form = upload.requestBody.content['multipart/form-data']?.schema;
    expect(form?.properties.file).toEqual({ type: 'string', format: 'binary' });
    expect(form?.required).toContain('file');
    expect(form?.properties.user_id).toBeDefined();
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['413', '429']));
  });

  it('declares 502 where the call talks to an outside server, and 429 where it is rate limited', () => {
    expect(Object.keys(operation('/api/email/test', 'post').responses)).toContain('502');
    expect(Object.keys(operation('/api/login', 'post').responses)).toContain('429');
    expect(Object.keys(operation('/api/users/all', 'get').responses)).not.toContain('502');
  });
});
