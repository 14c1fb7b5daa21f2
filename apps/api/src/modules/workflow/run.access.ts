import type { TWorkflowValue } from '@quire/contract';
import type { z } from 'zod';
import type { Deps } from '../../lib/deps.js';
import { objectNotFound } from '../../lib/object-guards.js';
import type { AuthContext } from '../../lib/session.js';
import { scopeOf } from '../../lib/visibility.js';
import * as repo from './run.repository.js';
import type { FieldMeta } from './workflow.values.js';

// What both run services ask: who reads only, which users a form's values name, and which
// file the caller may see the workflow of.

export type Out<S extends z.ZodType> = z.output<S>;

export const isAuditor = (auth: AuthContext) => auth.accessType === 'Auditor';

/** The user ids a list of values names (user fields), to check or to show. */
export const userIdsIn = (
  fields: Map<number, FieldMeta>,
  values: Array<{ field_id: number; value: TWorkflowValue }>,
) =>
  values.flatMap((v) =>
    fields.get(v.field_id)?.type === 'user' && typeof v.value === 'number' ? [v.value] : [],
  );

/**
 * The file the caller may see the workflow of: one they may view (being assigned to the step
 * it waits in lets them, lib/visibility.ts), as file-view says. 404 otherwise.
 */
export async function reachableFile(deps: Deps, auth: AuthContext, fileId: number) {
  const file = await repo.fileHead(deps.db, fileId);
  if (!file || !(await repo.fileIsVisible(deps.db, scopeOf(auth), fileId))) throw objectNotFound('file');
  return file;
}
