import type { Deps, Tx } from '../../lib/deps.js';
import * as repo from './intake.repository.js';
import { SOURCE_KINDS } from './source-kinds.js';

// The intake.poll job: one look at every enabled source of a kind that polls, one after the
// other; a source that cannot be read is marked `error` with the reason, and the others go on.

/** Every 5 seconds while a source is enabled (pollCron); a file is taken on its second look. */
export const INTAKE_POLL_CRON = '*/5 * * * * *';

/** The poll schedule's expression: on while an enabled source of a polled kind exists. */
export async function pollCron(db: Tx): Promise<string | null> {
  const kinds = Object.keys(SOURCE_KINDS) as Array<repo.SourceRow['kind']>;
  return (await repo.hasEnabledSource(db, kinds)) ? INTAKE_POLL_CRON : null;
}

export async function pollSources(deps: Deps) {
  const sources = await repo.listSources(deps.db, { enabled: true });
  for (const source of sources) await pollSource(deps, source);
}

/** One look at one source, its state and last error kept on its row. */
export async function pollSource(deps: Deps, source: repo.SourceRow) {
  const kind = SOURCE_KINDS[source.kind];
  if (!kind) return null;
  await repo.markRunning(deps.db, source.id, deps.now());
  try {
    const summary = await kind.poll(deps, source);
    await repo.markPolled(deps.db, source.id, null);
    return summary;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    deps.log.warn({ err, sourceId: source.id }, 'intake source poll failed');
    await repo.markPolled(deps.db, source.id, message.slice(0, 1000));
    return null;
  }
}
