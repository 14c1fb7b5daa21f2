import type { Tx } from '../../lib/deps.js';

// Comments, follows, favourites and other files of a file.

const person = { select: { id: true, username: true, firstName: true, lastName: true } };

export function createComment(tx: Tx, data: { fileId: number; authorId: number; body: string }) {
  return tx.comment.create({ data, include: { author: person } });
}

export function attachmentsWithFiles(tx: Tx, ids: number[]) {
  return tx.attachment.findMany({
    where: { id: { in: ids } },
    include: { file: { select: { id: true, name: true } } },
    orderBy: { id: 'asc' },
  });
}

export function deleteAttachments(tx: Tx, ids: number[]) {
  return tx.attachment.deleteMany({ where: { id: { in: ids } } });
}

export function findAttachment(tx: Tx, id: number) {
  return tx.attachment.findUnique({ where: { id } });
}

export async function follow(tx: Tx, fileId: number, userId: number) {
  const { count } = await tx.fileFollow.createMany({ data: [{ fileId, userId }], skipDuplicates: true });
  return count > 0;
}

/** Makes `userId` follow files `fileIds` in one statement: the ids of those not followed before. */
export async function followMany(tx: Tx, fileIds: number[], userId: number): Promise<Set<number>> {
  const added = await tx.fileFollow.createManyAndReturn({
    data: fileIds.map((fileId) => ({ fileId, userId })),
    skipDuplicates: true,
    select: { fileId: true },
  });
  return new Set(added.map((f) => f.fileId));
}

export async function unfollow(tx: Tx, fileId: number, userId: number) {
  return (await tx.fileFollow.deleteMany({ where: { fileId, userId } })).count > 0;
}

export async function favourite(tx: Tx, fileId: number, userId: number) {
  const { count } = await tx.fileFavourite.createMany({ data: [{ fileId, userId }], skipDuplicates: true });
  return count > 0;
}

export async function unfavourite(tx: Tx, fileId: number, userId: number) {
  return (await tx.fileFavourite.deleteMany({ where: { fileId, userId } })).count > 0;
}

export function findVersionOf(tx: Tx, fileId: number, where: { id?: number; number?: number }) {
  return tx.fileVersion.findFirst({ where: { fileId, ...where } });
}

export function currentVersion(tx: Tx, fileId: number) {
  return tx.file
    .findUnique({ where: { id: fileId }, select: { currentVersion: true } })
    .then((f) => f?.currentVersion ?? null);
}

/** The current version row of each of files `fileIds` that has one, by file id. */
export async function currentVersions(tx: Tx, fileIds: number[]) {
  const files = await tx.file.findMany({
    where: { id: { in: fileIds } },
    select: { id: true, currentVersion: true },
  });
  return new Map(files.flatMap((f) => (f.currentVersion ? [[f.id, f.currentVersion] as const] : [])));
}

export function fileState(tx: Tx, id: number) {
  return tx.file.findUniqueOrThrow({
    where: { id },
    select: { id: true, lockedBy: person, checkedOutBy: person },
  });
}

/** Who holds a file's lock (and since when), or nobody. */
export function setLock(tx: Tx, fileId: number, holder: { userId: number; at: Date } | null) {
  return tx.file.update({
    where: { id: fileId },
    data: { lockedById: holder?.userId ?? null, lockedAt: holder?.at ?? null },
  });
}

/** Who holds a file's check-out (and since when), or nobody. */
export function setCheckOut(tx: Tx, fileId: number, holder: { userId: number; at: Date } | null) {
  return tx.file.update({
    where: { id: fileId },
    data: { checkedOutById: holder?.userId ?? null, checkedOutAt: holder?.at ?? null },
  });
}

export function trash(tx: Tx, ids: number[], at: Date, userId: number) {
  return tx.file.updateMany({
    where: { id: { in: ids }, deletedAt: null },
    data: { deletedAt: at, deletedById: userId },
  });
}

/**
 * Events about a file that change nothing of it: reads (views, previews, downloads, exports)
 * and a person's own follow and favourite marks. The file's history leaves them out.
 */
const NOT_CHANGES = [
  'file.viewed',
  'file.previewed',
  'file.downloaded',
  'file.exported',
  'file.attachment_downloaded',
  'file.attachments_combined',
  'file.followed',
  'file.unfollowed',
  'file.favourited',
  'file.unfavourited',
];

/** One page of the changes to a file (its audit events but reads), newest first, with the total. */
export function fileActivityPage(tx: Tx, fileId: number, window: { skip: number; take: number }) {
  const where = {
    targetType: 'file',
    targetId: String(fileId),
    type: 'file',
    action: { notIn: NOT_CHANGES },
  };
  return Promise.all([
    tx.auditEvent.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      ...window,
      include: { user: { select: { username: true, firstName: true, lastName: true } } },
    }),
    tx.auditEvent.count({ where }),
  ]);
}

export function fileHistory(tx: Tx, fileId: number) {
  return tx.auditEvent.findMany({
    where: { targetType: 'file', targetId: String(fileId), type: 'file' },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    take: 10_000,
    include: { user: { select: { username: true } } },
  });
}
