import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ZPersonName, ZText, ZUsername } from '../src/common.js';
import { allEndpoints } from '../src/index.js';

const messages = (schema: z.ZodType, value: unknown) =>
  schema.safeParse(value).error?.issues.map((i) => i.message) ?? [];

describe('validation messages', () => {
  it('are words a person can act on, never zod’s own', () => {
    expect(messages(ZText(100), 'x'.repeat(101))).toEqual(['Use at most 100 characters']);
    expect(messages(z.string().min(3), 'ab')).toEqual(['Use at least 3 characters']);
    expect(messages(z.object({ a: z.string() }), {})).toEqual(['Required']);
    expect(messages(z.number().int(), 1.5)).toEqual(['Enter a whole number']);
    expect(messages(z.coerce.number().int().max(10), '11')).toEqual(['Enter a number no greater than 10']);
    expect(messages(z.array(z.number()).max(2), [1, 2, 3])).toEqual(['Give at most 2 items']);
    expect(messages(z.enum(['admin', 'user']), 'boss')).toEqual(['Choose one of: admin, user']);
    expect(messages(z.email(), 'nope')).toEqual(['Enter a valid e-mail address']);
    expect(messages(z.string(), 42)).toEqual(['Enter text']);
    expect(messages(z.strictObject({}), { extra: 1 })).toEqual(['Remove the unknown field: extra']);
    // A schema's own message still wins.
    expect(messages(z.string().min(1, 'Enter your password'), '')).toEqual(['Enter your password']);
  });
});

describe('text rules', () => {
  it('refuses names with line breaks, control or bidi characters; usernames must start with a letter or digit', () => {
    expect(ZPersonName.safeParse('  Nia ').data).toBe('Nia');
    expect(messages(ZPersonName, 'Nia\nVisit https://evil.example')).toEqual([
      'Use a single line, without line breaks',
    ]);
    expect(messages(ZPersonName, 'Nia\u0000')).toEqual(['Remove the invisible control characters']);
    expect(messages(ZPersonName, 'Nia\u202egpj.exe')).toEqual([
      'Remove the invisible text-direction characters',
    ]);
    expect(messages(ZUsername, '---')).toEqual(['Start with a letter or a digit']);
    expect(messages(ZUsername, '.hidden')).toEqual(['Start with a letter or a digit']);
    expect(ZUsername.safeParse('j.doe-2_x').success).toBe(true);
  });
});

// Every string a call takes refuses control characters, so a NUL never reaches PostgreSQL
// (a 500 there, before sign-in too). Walks each entry's params, query and body: for every
// field that takes some plain text, the same text with a NUL in it must be refused.
const SAMPLES = ['abc', 'Correct-Horse-Battery-9', 'user@example.test', 'smtp.example.com', '123456', 'true'];

function stringFields(schema: z.ZodType, path: string[] = []): Array<{ path: string[]; schema: z.ZodType }> {
  const def = (schema as { def?: { type?: string } }).def;
  if (def?.type === 'optional' || def?.type === 'nullable' || def?.type === 'default')
    return stringFields((schema as unknown as { unwrap(): z.ZodType }).unwrap(), path);
  if (schema instanceof z.ZodObject)
    return Object.entries(schema.shape).flatMap(([key, field]) =>
      stringFields(field as z.ZodType, [...path, key]),
    );
  if (schema instanceof z.ZodArray) return stringFields(schema.element as z.ZodType, [...path, '0']);
  return [{ path, schema }];
}

const fields = allEndpoints().flatMap(({ operationId, def }) =>
  (['params', 'query', 'body'] as const).flatMap((part) => {
    const schema = def[part];
    if (!schema || (part === 'body' && def.consumes === 'multipart')) return [];
    return stringFields(schema).flatMap((field) => {
      const sample = SAMPLES.find((s) => field.schema.safeParse(s).success);
      return sample === undefined
        ? []
        : [[`${operationId} ${part}.${field.path.join('.')}`, field.schema, sample] as const];
    });
  }),
);

describe('control characters', () => {
  it('finds the string fields of the calls', () => {
    const names = fields.map(([name]) => name);
    expect(names).toEqual(
      expect.arrayContaining([
        'auth.login body.username',
        'auth.login body.password',
        'auth.logError body.data',
        'user.users query.search',
        'user.createUser body.first_name',
        'user.createManyUsers body.users.0.last_name',
        'group.createGroup body.name',
        'group.editGroup body.description',
        'email.saveSetup body.from_name',
      ]),
    );
  });

  it.each(fields)('%s refuses a NUL', (_name, schema, sample) => {
    const half = Math.floor(sample.length / 2);
    expect(schema.safeParse(`${sample.slice(0, half)}\u0000${sample.slice(half)}`).success).toBe(false);
    expect(schema.safeParse(`${sample}\u001b`).success).toBe(false);
  });

  it('refuses a NUL anywhere inside reported client error data, keeping line breaks', () => {
    const data = allEndpoints().find((e) => e.operationId === 'auth.logError')?.def.body as z.ZodType;
    expect(data.safeParse({ data: { stack: 'at a\n  at b\tc' } }).success).toBe(true);
    expect(data.safeParse({ data: { nested: [{ message: 'x\u0000' }] } }).success).toBe(false);
    expect(data.safeParse({ data: { 'k\u0000': 1 } }).success).toBe(false);
  });
});
