import { z } from 'zod';
import type { Deps, Tx } from './deps.js';
import type { JobDefinition } from './jobs/definition.js';
import { enqueueMany, type JobKind, type JobPayloads } from './jobs/queue.js';

// What happened to a file, for the areas that react to it without the files area knowing
// them: workflow triggers (a file indexed into a category, a value changed), search (text
// to extract from a new version), follower notifications. The files area emits an event in
// the transaction of the change; each subscribing area gets it as a job of its own kind
// (enqueued in that same transaction: no change, no event), so one area's failure or retry
// never touches another's.
//
// An area subscribes by adding its job kind to FILE_EVENT_SUBSCRIBERS, declaring that kind's
// payload as FileEvent, and registering its handler (defineJob) in src/jobs.ts. Handlers run
// at least once: they check their own state first.

export const FILE_EVENT_TYPES = [
  'uploaded',
  'indexed',
  'values_changed',
  'version_added',
  'renamed',
  'moved',
  'locked',
  'unlocked',
  'checked_out',
  'checked_in',
  'commented',
  'attachment_added',
  'attachment_removed',
  'shared',
  'permissions_changed',
  'cancelled',
  'deleted',
  'restored',
  'purged',
] as const;
export type FileEventType = (typeof FILE_EVENT_TYPES)[number];

export interface FileEvent {
  type: FileEventType;
  file_id: number;
  /** The version concerned (uploaded, version_added, checked_in). */
  version_id?: number;
  /** The metadata fields whose values changed (indexed, values_changed). */
  field_ids?: number[];
  /** The category the file is in after the change. */
  category_id?: number | null;
  /** Who did it; null: the system. */
  actor_id: number | null;
}

/** A file event as a job's payload is checked. */
export const ZFileEvent: z.ZodType<FileEvent> = z.object({
  type: z.enum(FILE_EVENT_TYPES),
  file_id: z.number().int(),
  version_id: z.number().int().optional(),
  field_ids: z.array(z.number().int()).optional(),
  category_id: z.number().int().nullable().optional(),
  actor_id: z.number().int().nullable(),
});

/** The events that bring a version with new content (its text, thumbnail and preview are made). */
export const CONTENT_EVENTS = ['uploaded', 'version_added', 'checked_in'] as const satisfies FileEventType[];

/** The events a file's followers are told of (notification.service.ts words each one). */
export const FOLLOWER_EVENTS = [
  'values_changed',
  'version_added',
  'checked_in',
  'checked_out',
  'renamed',
  'moved',
  'locked',
  'unlocked',
  'commented',
  'attachment_added',
  'attachment_removed',
  'deleted',
  'restored',
] as const satisfies FileEventType[];

/** The events that start, move or cancel a workflow run (workflow/run.triggers.ts). */
export const WORKFLOW_EVENTS = [
  'indexed',
  'moved',
  'values_changed',
  'deleted',
] as const satisfies FileEventType[];

/**
 * The job kinds that receive file events, each with the events it reacts to: an event is
 * enqueued, one job a kind, for the kinds that list it and no other, so no job is written
 * (and run) only to be passed over. A kind's handler names its events from here.
 */
export const FILE_EVENT_SUBSCRIBERS: ReadonlyArray<{ kind: JobKind; events: readonly FileEventType[] }> = [
  { kind: 'notification.file_event', events: FOLLOWER_EVENTS },
  { kind: 'workflow.file_event', events: WORKFLOW_EVENTS },
  { kind: 'search.extract', events: CONTENT_EVENTS },
  { kind: 'preview.derive', events: CONTENT_EVENTS },
];

/** The job kinds an event of this type is enqueued for, in FILE_EVENT_SUBSCRIBERS' order. */
export function subscribersOf(type: FileEventType): JobKind[] {
  return FILE_EVENT_SUBSCRIBERS.filter((s) => s.events.includes(type)).map((s) => s.kind);
}

/** The job kinds whose payload is a file event. */
type FileEventKind = { [K in JobKind]: JobPayloads[K] extends FileEvent ? K : never }[JobKind];

/**
 * A subscriber's job that works on each version with new content (CONTENT_EVENTS) and lets
 * every other event pass. Its work runs in a process of its own (the text reader, the
 * renderer): one at a time per worker process (2 cores shared).
 */
export function contentVersionJob(
  kind: FileEventKind,
  timeoutMs: number,
  work: (deps: Deps, versionId: number) => Promise<void>,
): JobDefinition {
  const definition: JobDefinition<FileEvent> = {
    kind,
    payload: ZFileEvent,
    concurrency: 1,
    timeoutMs,
    async run(job, deps) {
      const event = job.payload;
      if (!isOneOf(CONTENT_EVENTS, event.type) || event.version_id === undefined) return;
      await work(deps, event.version_id);
    },
  };
  return definition as unknown as JobDefinition;
}

/** Whether `type` is one of `events` (narrowed to them). */
export function isOneOf<T extends FileEventType>(events: readonly T[], type: FileEventType): type is T {
  return (events as readonly FileEventType[]).includes(type);
}

/** Emits a file event to the areas that react to it, inside the caller's transaction. */
export function emitFileEvent(tx: Tx, event: FileEvent): Promise<void> {
  return emitFileEvents(tx, [event]);
}

/**
 * Emits many file events (a change of many files) in one statement, inside the caller's
 * transaction: each event's jobs, in the order given.
 */
export async function emitFileEvents(tx: Tx, events: readonly FileEvent[]): Promise<void> {
  await enqueueMany(
    tx,
    events.flatMap((event) => subscribersOf(event.type).map((kind) => ({ kind, payload: event as never }))),
  );
}
