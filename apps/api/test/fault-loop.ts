import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { blobCollectJob } from '../src/lib/blob-collector.js';
import { enqueue } from '../src/lib/jobs/queue.js';
import { createJobRunner } from '../src/lib/jobs/runner.js';
import { runVerification } from '../src/modules/audit/audit.service.js';
import type { TestContext } from './app.js';
import { type ChildServer, compileChildServer, startChildServer } from './child-server.js';
import {
  addCategoryFields,
  createCategory,
  createField,
  createFile,
  createUser,
  loginAs,
} from './factories.js';
import { multipart } from './multipart.js';
import { api, designWorkflow } from './workflows.js';

// The fault loop (issue 23): the real server in a child process on 127.0.0.1 (test/child-server.ts),
// one database and one store for the whole loop. Each round starts the server, fires a bounded
// mix of concurrent calls at it (uploads, indexing and edits of values, approvals and
// rejections on running workflows), kills it with SIGKILL at a random moment, and the next
// start (the restart) is checked before anything else is sent:
//   - every call answered 2xx before the kill is there: the file with its content, the value,
//     the decision; a call the kill cut off either happened whole or not at all;
//   - no `blobs` row (which every version, attachment and derivative names) lacks its content;
//   - the restart swept the killed server's temp files;
//   - after the blob collector has run (BLOB_GRACE_MS=0: the server is idle), no content in the
//     store is unnamed.
// After the last round the audit chain must verify. Timing and choices come from a seeded RNG
// (the seed is printed); the moment of the kill depends on the machine as well.
//
//   const t = await createTestApp(faultLoopEnv(dataDir));
//   const summary = await runFaultLoop(t, { rounds: 8, seed: 42 });
//
// Over 400 lines on purpose: the calls a round fires and the checks after its restart read
// and write one record of what was answered before the kill; apart, each would carry it.

/** The app secret the loop's servers share with the test's own app (the audit key derives from it). */
export const FAULT_APP_SECRET = 'fault-loop-secret-0123456789';

/** Configuration of the test's own app: the same store and key as the servers, the collector's grace 0. */
export const faultLoopEnv = (dataDir: string) => ({
  DATA_DIR: dataDir,
  APP_SECRET: FAULT_APP_SECRET,
  BLOB_GRACE_MS: '0',
});

export interface FaultLoopOptions {
  rounds: number;
  seed: number;
  /** Concurrent clients in a round (default 6). */
  lanes?: number;
  /**
   * The kill comes after this many answers in the round, at random (default 0–12), then 0–60 ms
   * more; after 0 answers, 0–800 ms after the first call (a server still warming up).
   */
  killAfterAnswers?: [number, number];
  log?: (line: string) => void;
}

export interface FaultLoopSummary {
  seed: number;
  rounds: number;
  ms: number;
  /** Milliseconds from spawn to "listening", each start. */
  startMs: number[];
  /** Calls answered 2xx before a kill, by kind. */
  confirmed: Record<OpKind, number>;
  /** Calls the kill cut off (no answer), by kind. */
  cutOff: Record<OpKind, number>;
  /** Answers that were neither 2xx nor a cut-off, as "kind status". */
  refused: string[];
  /** Content the collector removed after a restart (stored by a call the kill cut off). */
  swept: number;
  auditEvents: number;
}

type OpKind = 'upload' | 'index' | 'edit' | 'decide';
const KINDS: OpKind[] = ['upload', 'index', 'edit', 'decide'];

/** mulberry32: a small seeded generator, so a failing round can be replayed with its seed. */
export function seededRandom(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: T[]) => items[Math.floor(next() * items.length)] as T,
  };
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** What the loop knows of a file it uploaded. */
interface Tracked {
  id: number;
  name: string;
  blobId: string;
  indexed: boolean;
  /** The value of the loop's field as last confirmed (null: none). */
  value: string | null;
  /** Values sent in calls the kill cut off: the stored one may be any of them. */
  maybe: string[];
  /** An index call was cut off: the file may be indexed. */
  maybeIndexed: boolean;
  busy: boolean;
}

/** A file in a running workflow, waiting for the loop's assignee. */
interface RunningFile {
  fileId: number;
  instanceId: number;
  busy: boolean;
}

interface Decision {
  fileId: number;
  instanceId: number;
  action: 'approve' | 'reject';
  comment: string;
}

class Failure extends Error {}
const must = (ok: boolean, message: string) => {
  if (!ok) throw new Failure(message);
};

export async function runFaultLoop(t: TestContext, options: FaultLoopOptions): Promise<FaultLoopSummary> {
  const started = Date.now();
  const rng = seededRandom(options.seed);
  const log = options.log ?? (() => {});
  const lanes = options.lanes ?? 6;
  const [killMin, killMax] = options.killAfterAnswers ?? [0, 12];
  /** Called with each answer of the round (the kill's trigger counts them). */
  let onAnswer = () => {};
  const blobs = t.app.deps.blobs;
  const summary: FaultLoopSummary = {
    seed: options.seed,
    rounds: 0,
    ms: 0,
    startMs: [],
    confirmed: { upload: 0, index: 0, edit: 0, decide: 0 },
    cutOff: { upload: 0, index: 0, edit: 0, decide: 0 },
    refused: [],
    swept: 0,
    auditEvents: 0,
  };

  // People, a category with a text field, a one-step workflow (approve completes the run,
  // reject ends it rejected), all made through the test's own app on the shared database.
  const fileControl = await createUser(t.db, { accessType: 'File Control Admin' });
  const admin = await loginAs(t.app, fileControl);
  const uploaderUser = await createUser(t.db, { firstName: 'Fault', lastName: 'Uploader' });
  const assigneeUser = await createUser(t.db, { firstName: 'Fault', lastName: 'Assignee' });
  const uploader = await loginAs(t.app, uploaderUser, 'user');
  const assignee = await loginAs(t.app, assigneeUser, 'user');
  // Uploads are indexed and edited in one category; the runs are files of another, which the
  // workflow serves (a file indexed there would enter the workflow and refuse edits).
  const category = await createCategory(t.db, {
    grants: [{ userId: uploaderUser.id, rights: ['upload', 'edit'] }],
  });
  const runCategory = await createCategory(t.db, {
    grants: [{ userId: uploaderUser.id, rights: ['upload', 'edit'] }, { userId: assigneeUser.id }],
  });
  const field = await createField(t.db, { type: 'text' });
  await addCategoryFields(t.db, category.id, [field.id]);
  const workflow = await designWorkflow(t, admin, {
    categoryIds: [runCategory.id],
    steps: [{ name: 'Check', users: [assigneeUser.id] }],
  });
  const step = workflow.steps[0] as number;

  // The collector alone, with the app's configuration (BLOB_GRACE_MS=0); the other jobs the
  // calls queued (text, previews, notifications) wait: they write no content a call confirmed.
  const collector = createJobRunner(t.app.deps, {
    pollMs: 60_000,
    listen: false,
    definitions: [blobCollectJob],
  });

  const files = new Map<number, Tracked>();
  /** Uploads the kill cut off, by file name: present whole or not at all. */
  const cutUploads: Array<{ name: string; blobId: string }> = [];
  const running: RunningFile[] = [];
  const decided: Decision[] = [];
  const cutDecisions: Decision[] = [];
  /** Earlier contents, uploaded again now and then (the same blob for a new file). */
  const contents: Buffer[] = [];
  let seq = 0;

  /** Files put into the workflow for the next round's decisions (through the test's app). */
  async function startRuns(count: number) {
    const made = [];
    for (let i = 0; i < count; i++)
      made.push(
        await createFile(t.db, blobs, {
          ownerId: uploaderUser.id,
          categoryId: runCategory.id,
          name: `run-${++seq}.txt`,
        }),
      );
    const res = await api<{ started: Array<{ file_id: number; instance_id: number }> }>(t, uploader, {
      method: 'POST',
      url: '/api/initiate-workflow',
      payload: { workflow_id: workflow.id, file_ids: made.map((f) => f.id) },
    });
    for (const s of res.started) running.push({ fileId: s.file_id, instanceId: s.instance_id, busy: false });
  }

  /** One call to the server; null: no answer (the kill cut it off). */
  async function call(
    server: ChildServer,
    token: string,
    path: string,
    init: { body: Buffer | string; headers?: Record<string, string> },
  ) {
    try {
      const res = await fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          ...(typeof init.body === 'string' ? { 'content-type': 'application/json' } : {}),
          ...init.headers,
        },
        body: init.body,
      });
      const text = await res.text();
      onAnswer();
      return { status: res.status, body: text };
    } catch {
      return null;
    }
  }

  async function upload(server: ChildServer, round: number) {
    const parts = rng.int(1, 3) === 1 ? 2 : 1;
    const sent: Array<{ name: string; content: Buffer }> = [];
    for (let i = 0; i < parts; i++) {
      const reuse = contents.length > 0 && rng.int(1, 5) === 1;
      const content = reuse ? rng.pick(contents) : randomBytes(rng.int(1, 128) * 1024);
      if (!reuse) contents.push(content);
      sent.push({ name: `fault-r${round}-${++seq}.bin`, content });
    }
    const form = multipart({
      folder_id: String(category.id),
      file: sent.map((s) => ({ content: s.content, filename: s.name })),
    });
    const res = await call(server, uploader, '/api/new-upload', {
      body: form.payload,
      headers: form.headers,
    });
    if (!res) {
      summary.cutOff.upload++;
      for (const s of sent) cutUploads.push({ name: s.name, blobId: sha256(s.content) });
      return false;
    }
    if (res.status !== 200) {
      summary.refused.push(`upload ${res.status} ${res.body.slice(0, 200)}`);
      return true;
    }
    summary.confirmed.upload++;
    const answer = JSON.parse(res.body).data.files as Array<{ id: number; name: string }>;
    must(answer.length === sent.length, `an upload of ${sent.length} files answered ${answer.length}`);
    for (const [i, f] of answer.entries()) {
      const s = sent[i] as { name: string; content: Buffer };
      files.set(f.id, {
        id: f.id,
        name: s.name,
        blobId: sha256(s.content),
        indexed: false,
        value: null,
        maybe: [],
        maybeIndexed: false,
        busy: false,
      });
    }
    return true;
  }

  async function setValue(server: ChildServer, round: number, kind: 'index' | 'edit'): Promise<boolean> {
    const candidates = [...files.values()].filter(
      (f) => !f.busy && (kind === 'index' ? !f.indexed && !f.maybeIndexed : f.indexed),
    );
    if (!candidates.length) return kind === 'edit' ? setValue(server, round, 'index') : upload(server, round);
    const file = rng.pick(candidates);
    file.busy = true;
    const value = `${kind}-r${round}-${++seq}`;
    const res = await call(
      server,
      uploader,
      kind === 'index' ? '/api/submitmetas' : '/api/edit-file-user-field',
      {
        body: JSON.stringify({ file_id: file.id, values: [{ field_id: field.id, value }] }),
      },
    );
    file.busy = false;
    if (!res) {
      summary.cutOff[kind]++;
      file.maybe.push(value);
      if (kind === 'index') file.maybeIndexed = true;
      return false;
    }
    if (res.status !== 200) {
      summary.refused.push(`${kind} ${res.status} ${res.body.slice(0, 200)}`);
      return true;
    }
    summary.confirmed[kind]++;
    file.value = value;
    file.maybe = [];
    file.indexed = true;
    return true;
  }

  async function decide(server: ChildServer, round: number) {
    const candidates = running.filter((r) => !r.busy);
    if (!candidates.length) return setValue(server, round, 'edit');
    const run = rng.pick(candidates);
    run.busy = true;
    const decision: Decision = {
      fileId: run.fileId,
      instanceId: run.instanceId,
      action: rng.int(0, 1) ? 'approve' : 'reject',
      comment: `decision r${round}-${++seq}`,
    };
    const res = await call(server, assignee, '/api/manual-triger', {
      body: JSON.stringify({
        file_id: run.fileId,
        workflow_step_id: step,
        action: decision.action,
        comment: decision.comment,
      }),
    });
    running.splice(running.indexOf(run), 1);
    if (!res) {
      summary.cutOff.decide++;
      cutDecisions.push(decision);
      return false;
    }
    if (res.status !== 200) {
      summary.refused.push(`decide ${res.status} ${res.body.slice(0, 200)}`);
      return true;
    }
    summary.confirmed.decide++;
    decided.push(decision);
    return true;
  }

  /** One client: calls one after another until the kill (or its share is done). */
  async function lane(server: ChildServer, round: number, killed: () => boolean) {
    for (let i = 0; i < 40 && !killed(); i++) {
      const kind = rng.pick(KINDS);
      const answered =
        kind === 'upload'
          ? await upload(server, round)
          : kind === 'decide'
            ? await decide(server, round)
            : await setValue(server, round, kind);
      if (!answered) return;
    }
  }

  /** Every id in the store. */
  async function stored() {
    const ids = new Set<string>();
    for await (const b of blobs.list()) ids.add(b.id);
    return ids;
  }

  /** The checks after a restart, then the collector and the check that nothing is unnamed. */
  async function check(after: string) {
    // Uploads the kill cut off: present whole (then tracked from now on) or not at all.
    const cut = cutUploads.splice(0);
    const cutRows = await t.db.file.findMany({
      where: { name: { in: cut.map((c) => c.name) } },
      select: { id: true, name: true },
    });
    for (const row of cutRows) {
      const c = cut.find((x) => x.name === row.name) as { name: string; blobId: string };
      files.set(row.id, {
        id: row.id,
        name: c.name,
        blobId: c.blobId,
        indexed: false,
        value: null,
        maybe: [],
        maybeIndexed: false,
        busy: false,
      });
    }
    // Every confirmed upload: the file, its version naming its content; its value and state.
    const ids = [...files.keys()];
    const rows = new Map(
      (
        await t.db.file.findMany({
          where: { id: { in: ids } },
          select: {
            id: true,
            deletedAt: true,
            indexStatus: true,
            currentVersion: { select: { blobId: true } },
            values: { where: { fieldId: field.id }, select: { valueText: true } },
          },
        })
      ).map((r) => [r.id, r]),
    );
    for (const f of files.values()) {
      const row = rows.get(f.id);
      must(row !== undefined && row.deletedAt === null, `${after}: file ${f.id} (${f.name}) is gone`);
      if (!row) continue;
      must(row.currentVersion?.blobId === f.blobId, `${after}: file ${f.id} names other content`);
      const value = row.values[0]?.valueText ?? null;
      must(
        value === f.value || f.maybe.includes(value as string),
        `${after}: file ${f.id} holds the value ${value}, confirmed ${f.value}${f.maybe.length ? ` (or cut off: ${f.maybe.join(', ')})` : ''}`,
      );
      must(
        f.indexed ? row.indexStatus === 'indexed' : f.maybeIndexed || row.indexStatus === 'unindexed',
        `${after}: file ${f.id} is ${row.indexStatus}, ${f.indexed ? 'confirmed indexed' : 'never indexed'}`,
      );
      f.value = value;
      f.maybe = [];
      f.indexed = row.indexStatus === 'indexed';
      f.maybeIndexed = false;
    }
    // Every confirmed decision: its move is in the history and the run has ended.
    const moves = await t.db.workflowTransition.findMany({
      where: { instanceId: { in: [...decided, ...cutDecisions].map((d) => d.instanceId) } },
      select: {
        instanceId: true,
        kind: true,
        comment: true,
        actedById: true,
        instance: { select: { status: true } },
      },
    });
    for (const d of decided.splice(0)) {
      const move = moves.find((m) => m.instanceId === d.instanceId && m.comment === d.comment);
      const kind = d.action === 'approve' ? 'approved' : 'rejected';
      must(
        move !== undefined,
        `${after}: the confirmed ${d.action} of file ${d.fileId} is not in its history`,
      );
      must(
        move?.kind === kind && move.actedById === assigneeUser.id,
        `${after}: the ${d.action} of file ${d.fileId} is recorded as ${move?.kind}`,
      );
      must(
        move?.instance.status === (d.action === 'approve' ? 'completed' : 'rejected'),
        `${after}: file ${d.fileId}'s run is ${move?.instance.status} after its ${d.action}`,
      );
    }
    // A cut-off decision happened whole or not at all; a run still waiting goes back to the pool.
    for (const d of cutDecisions.splice(0)) {
      const instance = await t.db.workflowInstance.findUniqueOrThrow({
        where: { id: d.instanceId },
        select: { status: true },
      });
      const mine = moves.filter((m) => m.instanceId === d.instanceId && m.comment === d.comment);
      if (instance.status === 'running') {
        must(
          mine.length === 0,
          `${after}: file ${d.fileId}'s ${d.action} is recorded but its run still waits`,
        );
        running.push({ fileId: d.fileId, instanceId: d.instanceId, busy: false });
      } else {
        must(mine.length === 1, `${after}: file ${d.fileId}'s run ended without its ${d.action}`);
      }
    }
    // The restart swept the killed server's temp files (uploads it was receiving).
    const tmp = path.join(t.dataDir, 'blobs', 'tmp');
    const temps = existsSync(tmp) ? readdirSync(tmp) : [];
    must(temps.length === 0, `${after}: the killed server's temp files stay: ${temps.join(', ')}`);
    // No row names missing content; every file has its current version.
    const before = await stored();
    for (const { id } of await t.db.blob.findMany({ select: { id: true } }))
      must(before.has(id), `${after}: blob ${id} has a row but no content`);
    must(
      (await t.db.file.count({ where: { currentVersionId: null } })) === 0,
      `${after}: a file has no current version`,
    );
    // The collector, with its grace at 0 (the server is idle), then nothing is unnamed.
    await t.db.$transaction((tx) => enqueue(tx, 'blobs.collect', {}));
    const ran = await collector.runDue();
    must(ran.done === 1 && ran.failed === 0, `${after}: the collector did not run (${JSON.stringify(ran)})`);
    const named = new Set((await t.db.blob.findMany({ select: { id: true } })).map((b) => b.id));
    const left = await stored();
    for (const id of left)
      must(named.has(id), `${after}: content ${id} stays unnamed after the collector ran`);
    for (const id of named) must(left.has(id), `${after}: the collector left blob ${id} without its content`);
    for (const f of files.values())
      must(left.has(f.blobId), `${after}: the collector removed file ${f.id}'s content`);
    summary.swept += before.size - left.size;
  }

  let server: ChildServer | null = null;
  const compiled = await compileChildServer();
  const start = async () => {
    const t0 = Date.now();
    const s = await startChildServer(t.databaseUrl, t.dataDir, { APP_SECRET: FAULT_APP_SECRET }, compiled);
    summary.startMs.push(Date.now() - t0);
    return s;
  };
  try {
    for (let round = 1; round <= options.rounds; round++) {
      if (running.length < lanes) await startRuns(lanes * 2);
      const t0 = Date.now();
      server = await start();
      const t1 = Date.now();
      if (round > 1) await check(`after restart ${round - 1}`);
      const t2 = Date.now();
      const current = server;
      let killed = false;
      const afterAnswers = rng.int(killMin, killMax);
      const extra = afterAnswers ? rng.int(0, 60) : rng.int(0, 800);
      let answers = 0;
      let fallback: NodeJS.Timeout | undefined;
      const due = new Promise<void>((resolve) => {
        const fire = () => setTimeout(resolve, extra);
        if (afterAnswers === 0) fire();
        onAnswer = () => {
          if (++answers === afterAnswers) fire();
        };
        // A round whose lanes are done (or stuck) before the count is reached ends anyway.
        fallback = setTimeout(resolve, 20_000);
      });
      const work = Array.from({ length: lanes }, () => lane(current, round, () => killed));
      await Promise.race([due, Promise.all(work)]);
      clearTimeout(fallback);
      const exited = new Promise((r) => current.proc.once('exit', r));
      killed = true;
      current.proc.kill('SIGKILL');
      await exited;
      await Promise.all(work);
      server = null;
      summary.rounds = round;
      log(
        `round ${round}: start ${t1 - t0} ms, check ${t2 - t1} ms, work ${Date.now() - t2} ms; killed ${afterAnswers ? `${extra} ms after answer ${afterAnswers}` : `${extra} ms after the first call`}; so far ${KINDS.map((k) => `${k} ${summary.confirmed[k]}+${summary.cutOff[k]} cut`).join(', ')}`,
      );
    }
    server = await start();
    await check(`after restart ${options.rounds}`);
    const report = await runVerification(t.app.deps);
    must(report.ok, `the audit chain does not verify: ${report.problem?.message}`);
    summary.auditEvents = report.checked;
  } finally {
    await server?.stop();
    await compiled.remove();
  }
  summary.ms = Date.now() - started;
  return summary;
}
