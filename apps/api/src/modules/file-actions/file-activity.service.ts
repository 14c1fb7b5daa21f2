import type { TFileActivity } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { type PageQuery, pageMeta, pageWindow } from '../../lib/paging.js';
import * as repo from './file-actions.repository.js';

// A file's history on its page: the audit events about the file, newest first. The route's
// object guard has already checked that the caller may view the file.

export async function fileActivity(deps: Deps, fileId: number, q: PageQuery) {
  const [events, total] = await repo.fileActivityPage(deps.db, fileId, pageWindow(q));
  const items: TFileActivity[] = events.map((e) => ({
    id: Number(e.id),
    created_at: e.createdAt.toISOString(),
    by: e.user ? `${e.user.firstName} ${e.user.lastName}`.trim() || e.user.username : null,
    action: e.action,
    message: e.message,
  }));
  return { items, ...pageMeta(q, total) };
}
