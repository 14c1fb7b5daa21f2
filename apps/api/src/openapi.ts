import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { UploadSpec } from '@quire/contract';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

type Json = Record<string, unknown>;

/** What each status means, in the document (one wording for every call). */
const DESCRIPTIONS: Record<string, string> = {
  '200': 'Done: `{ message?, data }`',
  '400': 'Bad input: `errors` names each field at fault; nothing was written',
  '401': 'Not signed in (no session, or it ended; for sign-in: wrong credentials)',
  '403': 'Not allowed to do this (for sign-up and sign-in: turned off, or an account that may not)',
  '404': 'No such object, or one the caller may not see',
  '409': 'The object is in a state that does not allow this (locked, checked out, in use)',
  '413': 'The body or upload is larger than the limit; nothing was kept',
  '429': 'Too many attempts; wait and try again',
  '500': 'Something went wrong on the server; the request id is in the `x-request-id` header',
  '502': 'The outside server this call talks to (SMTP, directory) failed',
};

/**
 * Turns the pipeline's notes on a route (`x-quire-file`, `x-quire-multipart`) into the
 * OpenAPI shapes: a binary 200 with its media type, a multipart/form-data request body with
 * the file field(s) as binary.
 */
function describeOperation(op: Json) {
  const responses = (op.responses ?? {}) as Record<string, Json>;
  const file = op['x-quire-file'];
  if (typeof file === 'string') {
    responses['200'] = {
      description: 'The file',
      headers: {
        'Content-Disposition': {
          schema: { type: 'string' },
          description: 'attachment or inline, with the filename',
        },
      },
      content: { [file]: { schema: { type: 'string', contentMediaType: file, format: 'binary' } } },
    };
    delete op['x-quire-file'];
  }
  const multipart = op['x-quire-multipart'] as { fields: Json | null; upload: UploadSpec } | undefined;
  if (multipart) {
    const { $schema: _dialect, ...fields } = multipart.fields ?? { type: 'object', properties: {} };
    const binary = { type: 'string', format: 'binary' };
    const max = multipart.upload.max ?? 1;
    const properties = {
      ...((fields.properties as Json | undefined) ?? {}),
      [multipart.upload.field]: max > 1 ? { type: 'array', items: binary, maxItems: max } : binary,
    };
    const required = [
      ...((fields.required as string[] | undefined) ?? []),
      ...(multipart.upload.required === false ? [] : [multipart.upload.field]),
    ];
    op.requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: { ...fields, type: 'object', properties, ...(required.length ? { required } : {}) },
        },
      },
    };
    delete op['x-quire-multipart'];
  }
  for (const [status, response] of Object.entries(responses)) {
    if (response.description === 'Default Response') response.description = DESCRIPTIONS[status] ?? 'Answer';
  }
}

/** /api/openapi.json, generated from the route schemas (which are the contract's). */
export async function registerOpenApi(app: FastifyInstance, publicUrl: string) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Quire API',
        version: '1.0.0',
        description:
          'Document and file management. Every call carries `Authorization: Bearer <access_token>`, except the public ones (security `[]`).',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Quire' },
      },
      servers: [{ url: publicUrl, description: 'This Quire server' }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    transform: jsonSchemaTransform,
    transformObject: (documentObject) => {
      const doc = (documentObject as { openapiObject: Json }).openapiObject;
      for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, Json>>)) {
        for (const op of Object.values(item)) describeOperation(op);
      }
      const tags = new Set<string>();
      for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, Json>>))
        for (const op of Object.values(item))
          for (const tag of (op.tags as string[] | undefined) ?? []) tags.add(tag);
      doc.tags = [...tags].sort().map((name) => ({ name, description: `The ${name} area of the product` }));
      return doc;
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
