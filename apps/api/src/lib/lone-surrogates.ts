import type { FastifyRequest } from 'fastify';
import { invalidInput } from './errors.js';

// JSON may spell a lone UTF-16 surrogate ("\ud800"), which is not text: PostgreSQL refuses it
// (invalid UTF-8) wherever it is stored, so a call that writes it, or audits it, failed with a
// 500 (sign-in, the client error report, renaming a file...). One check for every call of the
// contract (lib/route.ts, after the guard, before validation): a body holding such a string,
// as a value or as a key, is refused with a 400 naming the field, before anything runs.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The path (`body.a.0.b`) of the first string, or key, holding a lone surrogate; null when none. */
function loneSurrogateAt(value: unknown, path = 'body'): string | null {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? path : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = loneSurrogateAt(item, `${path}.${i}`);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (LONE_SURROGATE.test(key)) return `${path}.${key.replace(LONE_SURROGATE, '\uFFFD')}`;
      const found = loneSurrogateAt(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return null;
}

const MESSAGE = 'Contains a character that is not valid text (a lone UTF-16 surrogate); remove it';

/** The routes' preValidation step: refuses a JSON body with a lone surrogate anywhere in it. */
export async function refuseLoneSurrogates(req: FastifyRequest): Promise<void> {
  const path = loneSurrogateAt(req.body);
  if (path)
    throw invalidInput(`${path.split('.').slice(1).join('.')}: ${MESSAGE}`, [{ path, message: MESSAGE }]);
}
