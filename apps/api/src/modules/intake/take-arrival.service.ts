import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { type Actor, audit } from '../../lib/audit.js';
import { BlobTooLargeError } from '../../lib/content-meter.js';
import { type Deps, UPLOAD_TX } from '../../lib/deps.js';
import { enqueue } from '../../lib/jobs/queue.js';
import { displayName } from '../file/file.content.js';
import { type StoredUpload, storeUpload } from '../file/file.service.js';
import { leaveUnindexedFor } from '../file/index-files.service.js';
import { createUploadIn } from '../file/upload-files.service.js';
import * as repo from './intake.repository.js';

// The one way in for everything a source takes (a watched folder's file, an e-mail's
// attachment): claimed by its external key so it is never taken twice, uploaded like any
// upload, recorded as an arrival with an audit event naming the source, and handed to the
// rules (intake.file job, file-arrival.service.ts).

declare module '../../lib/jobs/queue.js' {
  interface JobPayloads {
    /** Applies the intake rules to a taken arrival (`intake_arrivals.id`). */
    'intake.file': { arrival_id: number };
  }
}

/**
 * Content a source will not take, by its type read from the bytes: programs and scripts,
 * markup that runs in a browser, and content of no known type. They go to failed/ (or are
 * left in the mailbox) with the reason.
 */
const REFUSED_TYPES = new Set([
  'application/octet-stream',
  'application/x-msdownload',
  'application/vnd.microsoft.portable-executable',
  'application/x-ms-dos-executable',
  'application/x-elf',
  'application/x-executable',
  'application/x-mach-binary',
  'application/x-sharedlib',
  'application/x-sh',
  'application/x-msi',
  'application/java-archive',
  'application/vnd.ms-cab-compressed',
  'text/html',
  'image/svg+xml',
]);

interface ArrivalInput {
  sourceId: number;
  /**
   * What identifies it at its source, unique per source (folder: `path|size|mtime|sha256`;
   * IMAP: `UIDVALIDITY:UID` or the Message-ID). A function is given the content's sha256 and
   * size once it is stored, for keys that name them.
   */
  externalKey: string | ((content: { sha256: string; size: number }) => string);
  fileName: string;
  /** The content, as a stream or a path on the server. */
  stream?: Readable;
  path?: string;
  sender?: string | null;
  subject?: string | null;
  /** File into this category rather than the source's (a sub-folder's sub-category). */
  categoryId?: number;
  /** Refused by the source before it is read (say, larger than the largest upload by its size). */
  refusal?: string;
  /** The source's row, when the caller has just read it (a poll taking many files). */
  source?: repo.SourceRow;
}

type TakeOutcome =
  | { outcome: 'taken'; arrivalId: number; fileId: number; externalKey: string }
  | { outcome: 'failed'; arrivalId: number; reason: string; externalKey: string }
  /** Claimed already (an earlier take, or another server's): nothing was done. */
  | {
      outcome: 'duplicate';
      arrivalId: number | null;
      status: 'taken' | 'failed';
      reason: string | null;
      externalKey: string;
    };

/** Refused before or while reading: the arrival fails with this reason, nothing is filed. */
class Refused extends Error {}

/** The category went between the look and the insert: the arrival fails. */
class CategoryGone extends Error {}

/** Intake acts as no signed-in person: its events name the source. */
export const INTAKE_ACTOR: Actor = { userId: null, ip: null };

export function mb(bytes: number) {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

/** Keys are looked up whole; an over-long one is cut (with its hash at the end keeping it unique). */
function keyOf(input: ArrivalInput, content: { sha256: string; size: number }) {
  const key = typeof input.externalKey === 'function' ? input.externalKey(content) : input.externalKey;
  return key.length > 2000 ? `${key.slice(0, 1900)}…${content.sha256}` : key;
}

/**
 * Takes one thing that arrived at a source. Transient trouble (the database, the blob store)
 * throws, and nothing is claimed: the source offers it again on its next look. A refusal (too
 * large, a refused type, the category or owner gone, the source off) is a failed arrival, with
 * its reason. Otherwise the file is uploaded into the source's category as its owner's (left
 * for the source's group, when it has one), and the arrival row, its audit event and the job
 * that files it by the rules commit with it.
 */
export async function takeArrival(deps: Deps, input: ArrivalInput): Promise<TakeOutcome> {
  const name = displayName(input.fileName);
  const sender = input.sender?.slice(0, 1000) ?? null;
  const subject = input.subject?.slice(0, 1000) ?? null;
  const source =
    input.source?.id === input.sourceId ? input.source : await repo.findSource(deps.db, input.sourceId);
  if (!source) throw new Error(`Intake source ${input.sourceId} is gone`);
  // A key known before the content is read: a claimed one is not read again.
  if (typeof input.externalKey === 'string') {
    const known = await repo.arrivalByKey(deps.db, source.id, input.externalKey);
    if (known) {
      input.stream?.destroy();
      return {
        outcome: 'duplicate',
        arrivalId: known.id,
        status: known.status,
        reason: known.reason,
        externalKey: input.externalKey,
      };
    }
  }

  let stored: StoredUpload | null = null;
  let refusal: string | null = null;
  try {
    if (input.refusal) throw new Refused(input.refusal);
    if (!source.enabled) throw new Refused(`The source "${source.name}" is turned off`);
    const stream = input.stream ?? (input.path ? createReadStream(input.path) : null);
    if (!stream) throw new Error('takeArrival needs a stream or a path');
    stored = await storeUpload(deps, { filename: name, stream }, deps.config.MAX_UPLOAD_BYTES);
    if (stored.size === 0) throw new Refused('The file is empty');
    if (REFUSED_TYPES.has(stored.mimeType))
      throw new Refused(
        stored.mimeType === 'application/octet-stream'
          ? 'Its content is of no known document type'
          : `Its content is ${stored.mimeType}, a type intake does not take`,
      );
  } catch (err) {
    input.stream?.destroy();
    if (err instanceof BlobTooLargeError)
      refusal = `It is larger than the largest upload (${mb(deps.config.MAX_UPLOAD_BYTES)})`;
    else if (err instanceof Refused) refusal = err.message;
    else throw err;
  }
  const content = stored ? { sha256: stored.blobId, size: stored.size } : { sha256: '-', size: -1 };
  const externalKey = keyOf(input, content);

  if (!refusal && stored) {
    const upload = stored;
    type Taken = { arrivalId: number; fileId: number } | { refused: string } | { duplicate: true };
    const taken: Taken = await deps.db
      .$transaction(async (tx): Promise<Taken> => {
        const categoryId = input.categoryId ?? source.categoryId;
        const owner = await repo.activeUser(tx, source.ownerId);
        if (!owner) return { refused: `Its owner, ${source.owner.username}, is no longer active` };
        const arrivalId = await repo.claimArrival(tx, {
          sourceId: source.id,
          externalKey,
          status: 'taken',
          reason: null,
          fileName: name,
          size: upload.size,
          sender,
          subject,
          at: deps.now(),
        });
        if (arrivalId === null) return { duplicate: true };
        const file = await createUploadIn(tx, {
          categoryId,
          ownerId: owner.id,
          actor: INTAKE_ACTOR,
          upload,
          message: `Took "${upload.name}" from ${source.kind} "${source.name}"`,
        });
        if (!file) {
          // Rolled back with the claim; recorded as failed below.
          throw new CategoryGone();
        }
        // Left for a group: each member finds it in their unindexed files.
        const group = source.fileAs === 'unindexed' ? source.unindexedGroup : null;
        if (group) await leaveUnindexedFor(tx, file.id, { groupId: group.id });
        await repo.setArrivalFile(tx, arrivalId, file.id);
        await repo.countArrival(tx, source.id, 'taken');
        await audit(tx, INTAKE_ACTOR, {
          type: 'intake',
          action: 'intake.arrival_taken',
          message: `Took "${upload.name}" from ${source.kind} "${source.name}"${group ? `, left unindexed for group "${group.name}"` : ''}`,
          targetType: 'file',
          targetId: file.id,
          details: {
            source_id: source.id,
            source_name: source.name,
            source_kind: source.kind,
            arrival_id: arrivalId,
            external_key: externalKey,
            ...(group ? { unindexed_group_id: group.id, unindexed_group_name: group.name } : {}),
            ...(sender ? { sender } : {}),
            ...(subject ? { subject } : {}),
          },
        });
        await enqueue(tx, 'intake.file', { arrival_id: arrivalId });
        return { arrivalId, fileId: file.id };
      }, UPLOAD_TX)
      .catch((err): Taken => {
        if (err instanceof CategoryGone) return { refused: 'Its category is gone' };
        throw err;
      });
    if ('arrivalId' in taken)
      return { outcome: 'taken', arrivalId: taken.arrivalId, fileId: taken.fileId, externalKey };
    if ('refused' in taken) refusal = taken.refused;
  }

  if (refusal) {
    const reason = refusal;
    const failedId = await deps.db.$transaction(async (tx) => {
      const arrivalId = await repo.claimArrival(tx, {
        sourceId: source.id,
        externalKey,
        status: 'failed',
        reason,
        fileName: name,
        size: stored ? stored.size : null,
        sender,
        subject,
        at: deps.now(),
      });
      if (arrivalId === null) return null;
      await repo.countArrival(tx, source.id, 'failed');
      await audit(tx, INTAKE_ACTOR, {
        type: 'intake',
        action: 'intake.arrival_failed',
        message: `Could not take "${name}" from ${source.kind} "${source.name}": ${reason}`,
        targetType: 'intake_arrival',
        targetId: arrivalId,
        details: {
          source_id: source.id,
          source_name: source.name,
          source_kind: source.kind,
          external_key: externalKey,
          reason,
        },
      });
      return arrivalId;
    }, UPLOAD_TX);
    if (failedId !== null) return { outcome: 'failed', arrivalId: failedId, reason, externalKey };
  }

  // Someone claimed the key first: what did they make of it?
  const known = await repo.arrivalByKey(deps.db, source.id, externalKey);
  return {
    outcome: 'duplicate',
    arrivalId: known?.id ?? null,
    status: known?.status ?? 'taken',
    reason: known?.reason ?? null,
    externalKey,
  };
}
