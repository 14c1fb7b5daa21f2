import {
  type IdSource,
  type ObjectGuard,
  type ObjectKind,
  type ObjectRight,
  objectGuardParts,
} from '@quire/contract';
import { AppError } from './errors.js';
import type { AuthContext } from './session.js';

/**
 * What a caller may do with a set of objects of one kind:
 * - `allowed`: every id exists, is visible and grants the right;
 * - `forbidden`: every id is visible, one lacks the right (403);
 * - `hidden`: one id does not exist or may not be seen (404, the same answer for both).
 */
export type ObjectVerdict = 'allowed' | 'forbidden' | 'hidden';

/** Answers "may this caller do `right` on these ids?" for one kind, from the database. */
type ObjectCheck = (auth: AuthContext, ids: number[], right: ObjectRight) => Promise<ObjectVerdict>;

const LABELS: Record<ObjectKind, string> = {
  category: 'Category',
  file: 'File',
  version: 'Version',
  attachment: 'Attachment',
};

/**
 * The checks of every object kind. An area registers its kind once (its routes module, from
 * its service); the route pipeline asks it for every entry declaring `object`.
 */
export class ObjectGuards {
  readonly #checks = new Map<ObjectKind, ObjectCheck>();

  register(kind: ObjectKind, check: ObjectCheck): void {
    if (this.#checks.has(kind)) throw new Error(`The object guard "${kind}" is registered twice`);
    this.#checks.set(kind, check);
  }

  has(kind: ObjectKind): boolean {
    return this.#checks.has(kind);
  }

  /** Throws the 404 or 403 of a refusal; returns when the caller may go on. */
  async assert(
    guard: ObjectGuard,
    auth: AuthContext,
    input: { params?: unknown; query?: unknown; body?: unknown },
  ) {
    const { kind, right, from } = objectGuardParts(guard);
    const check = this.#checks.get(kind);
    if (!check) throw new Error(`No object guard is registered for "${kind}"`);
    const ids = idsAt(input, from);
    // An absent optional id (validated by the schema) guards nothing.
    if (ids.length === 0) return;
    const verdict = await check(auth, [...new Set(ids)], right);
    if (verdict === 'hidden') throw objectNotFound(kind);
    if (verdict === 'forbidden') throw objectForbidden(kind, right);
  }
}

/** The ids named by `from` in the validated input: one number, or every number of an array. */
function idsAt(input: { params?: unknown; query?: unknown; body?: unknown }, from: IdSource): number[] {
  const [where, ...path] = from.split('.') as ['params' | 'query' | 'body', ...string[]];
  let value: unknown = input[where];
  for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key];
  const values = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return values.map((v) => Number(v)).filter((v) => Number.isInteger(v) && v > 0);
}

/** 404 for an object the caller may not see: the same words as for one that does not exist. */
export function objectNotFound(kind: ObjectKind): AppError {
  return new AppError(`${kind}.not_found`, 404, `${LABELS[kind]} not found`, undefined, { refusal: true });
}

function objectForbidden(kind: ObjectKind, right: ObjectRight): AppError {
  const verb: Record<ObjectRight, string> = {
    view: 'view',
    download: 'download',
    upload: 'upload into',
    edit: 'edit',
    delete: 'delete',
    share: 'share',
    manage: 'manage',
  };
  return new AppError(
    `${kind}.forbidden`,
    403,
    `You are not allowed to ${verb[right]} this ${LABELS[kind].toLowerCase()}`,
  );
}
