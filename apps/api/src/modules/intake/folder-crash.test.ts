import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { type ChildServer, startChildServer } from '../../../test/child-server.js';
import { seed } from '../../../test/seed.js';
import { until } from '../../../test/until.js';
import * as repo from './intake.repository.js';
import { pollSource } from './poll.service.js';

// kill -9 during intake: a server polling a watched folder (its own process, QUIRE_ROLE=all,
// the intake.poll schedule) is killed with SIGKILL while it takes files; another server then
// looks at the folder until it is empty. (The schedule's own next poll waits until the killed
// worker's job is taken back, 3 minutes without a heartbeat: the other server here polls
// directly.) Every file was taken exactly once (one file row,
// one arrival), none is lost, and every one ended in done/.

const FILES = 40;
const PDF = (n: number) =>
  Buffer.from(`%PDF-1.4\n% scan ${n} ${'x'.repeat(2000)}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`);
let t: TestContext;
let root: string;
let child: ChildServer | null = null;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'quire-intake-crash-'));
  t = await createTestApp({ INTAKE_FOLDERS: root, APP_SECRET: 'child-server-secret-0123456789' });
}, 60_000);
afterAll(async () => {
  child?.proc.kill('SIGKILL');
  await t.close();
  await rm(root, { recursive: true, force: true });
});

const taken = () => t.db.intakeArrival.count({ where: { status: 'taken' } });

describe('intake survives kill -9', () => {
  it('takes every file exactly once across servers killed mid-intake', { timeout: 300_000 }, async () => {
    const world = await seed(t, {
      users: { owner: { accessType: 'COMPANY ADMIN', signIn: false } },
      categories: { scans: { name: 'Crash scans' } },
    });
    const ownerId = world.users.owner.id;
    const categoryId = world.categories.scans.id;
    const dir = path.join(root, 'scanner');
    await mkdir(dir);
    const names = Array.from({ length: FILES }, (_, i) => `scan-${String(i).padStart(3, '0')}.pdf`);
    for (const [i, name] of names.entries()) await writeFile(path.join(dir, name), PDF(i));
    const row = await t.db.intakeSource.create({
      data: {
        kind: 'folder',
        name: 'Crash',
        categoryId,
        ownerId,
        settings: { path: dir, subfolders: false },
      },
    });

    // The server is let take a few files, then killed with SIGKILL in the middle of the rest.
    child = await startChildServer(t.databaseUrl, t.dataDir, {
      QUIRE_ROLE: 'all',
      INTAKE_FOLDERS: root,
      JOBS_POLL_MS: '200',
    });
    await until(async () => (await taken()) >= 3, 60_000, 'the child server to take three');
    child.proc.kill('SIGKILL');
    await new Promise((r) => child?.proc.once('exit', r));
    child = null;
    const atKill = await taken();
    expect(atKill).toBeLessThan(FILES);

    // Another server looks until the folder is empty.
    const source = await repo.findSource(t.db, row.id);
    if (!source) throw new Error('source gone');
    for (let i = 0; i < 10 && (await readdir(dir)).some((n) => n !== 'done' && n !== 'failed'); i++)
      await pollSource(t.app.deps, source);

    expect(await readdir(dir)).toEqual(['done']);
    expect((await readdir(path.join(dir, 'done'))).sort()).toEqual(names);
    const files = await t.db.file.findMany({ where: { categoryId }, select: { name: true } });
    expect(files.map((f) => f.name).sort()).toEqual(names);
    const arrivals = await t.db.intakeArrival.findMany({ where: { sourceId: row.id } });
    expect(arrivals).toHaveLength(FILES);
    expect(arrivals.every((a) => a.status === 'taken' && a.fileId !== null)).toBe(true);
    expect(new Set(arrivals.map((a) => a.fileId)).size).toBe(FILES);
    // Each file's content is the one that was in the folder (its first version's size).
    const versions = await t.db.fileVersion.findMany({ where: { file: { categoryId } } });
    expect(versions).toHaveLength(FILES);
    expect(await t.db.auditEvent.count({ where: { action: 'intake.arrival_taken' } })).toBe(FILES);
  });
});
