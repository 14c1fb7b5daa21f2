import type { z } from 'zod';

// A small valid value for a contract schema, for tests that walk every call and need it to
// get past validation (the object guard runs after it). Strings take the first of a few
// candidates the leaf schema accepts; ids are 1 unless the caller overrides them.

type Def = { type: string } & Record<string, unknown>;
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const STRINGS = [
  'Probe',
  'probe@example.test',
  'Quiet-Lantern-River-8',
  '2026-01-01',
  '2026-01-01T00:00:00.000Z',
  '1',
  'https://example.test',
  '0 0 * * *',
  'probe.txt',
  'abcdef',
  'a',
  'ldap://127.0.0.1:389',
  '(uid={username})',
  'RESTORE',
];
const NUMBERS = [1, 0, 2, 10, 100];

/** A value `schema` accepts, or undefined where none of the candidates fits (or an optional key). */
export function sampleOf(schema: z.ZodType, optionals = false): unknown {
  const value = sampleRaw(schema, optionals);
  if (value === undefined || schema.safeParse(value).success) return value;
  // A refinement the parts do not show (an e-mail behind a pipe, a cross-field rule).
  const scalar = [...STRINGS, ...NUMBERS, true, false].find((c) => schema.safeParse(c).success);
  if (scalar !== undefined) return scalar;
  if (!optionals) {
    const fuller = sampleRaw(schema, true);
    if (schema.safeParse(fuller).success) return fuller;
  }
  return value;
}

function sampleRaw(schema: z.ZodType, optionals: boolean): unknown {
  const def = defOf(schema);
  const first = (candidates: unknown[]) => candidates.find((c) => schema.safeParse(c).success);
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
      return optionals ? sampleOf(def.innerType as z.ZodType, true) : undefined;
    case 'nullable':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return sampleOf(def.innerType as z.ZodType);
    case 'lazy':
      return sampleOf((def.getter as () => z.ZodType)());
    case 'pipe': {
      const inner = def.in as z.ZodType;
      return defOf(inner).type === 'transform' ? sampleOf(def.out as z.ZodType) : sampleOf(inner);
    }
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const v = sampleOf(value, optionals);
        if (v !== undefined) out[key] = v;
      }
      return out;
    }
    case 'array': {
      const one = sampleOf(def.element as z.ZodType);
      return first([[one], [], [one, one]]) ?? [one];
    }
    case 'tuple':
      return (def.items as z.ZodType[]).map((item) => sampleOf(item, optionals));
    case 'record':
      return {};
    case 'union':
      for (const option of def.options as z.ZodType[]) {
        const v = sampleOf(option);
        if (option.safeParse(v).success) return v;
      }
      return undefined;
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'string':
      return first(STRINGS);
    case 'number':
    case 'int':
    case 'bigint':
      return first(NUMBERS);
    case 'boolean':
      return false;
    case 'date':
      return '2026-01-01T00:00:00.000Z';
    case 'null':
      return null;
    default:
      // custom (a file part), any, unknown: nothing to send.
      return undefined;
  }
}

/** The keys of an object schema (through optional, pipe and the like), or [] for another kind. */
export function objectKeys(schema: z.ZodType | undefined): string[] {
  if (!schema) return [];
  const def = defOf(schema);
  if (def.type === 'object') return Object.keys(def.shape as object);
  if (def.type === 'pipe') return objectKeys(def.in as z.ZodType);
  if ('innerType' in def) return objectKeys(def.innerType as z.ZodType);
  return [];
}

/** The schema at `key` of an object schema, unwrapped of optional/default/nullable. */
export function fieldSchema(schema: z.ZodType | undefined, key: string): z.ZodType | undefined {
  if (!schema) return undefined;
  const def = defOf(schema);
  if (def.type === 'object') return unwrap((def.shape as Record<string, z.ZodType>)[key]);
  if (def.type === 'pipe') return fieldSchema(def.in as z.ZodType, key);
  if ('innerType' in def) return fieldSchema(def.innerType as z.ZodType, key);
  return undefined;
}

function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  if (!schema) return undefined;
  const def = defOf(schema);
  if ('innerType' in def) return unwrap(def.innerType as z.ZodType);
  if (def.type === 'pipe' && defOf(def.in as z.ZodType).type !== 'transform')
    return unwrap(def.in as z.ZodType);
  return schema;
}

/** Whether a (field) schema takes a list. */
export function isArraySchema(schema: z.ZodType | undefined): boolean {
  return !!schema && defOf(schema).type === 'array';
}

/** Whether a (field) schema takes a whole number (an id). */
export function isIntegerSchema(schema: z.ZodType | undefined): boolean {
  if (!schema) return false;
  const probe = schema.safeParse(7);
  return probe.success && !schema.safeParse(7.5).success && !schema.safeParse('x7').success;
}
