import { appendFile, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.js';
import { seed, seededApp } from '../../../test/seed.js';
import * as repo from './intake.repository.js';
import { pollSource } from './poll.service.js';

// Watched folders on a real temp folder: a file is taken only once two looks see it unchanged
// (written slowly, it waits), a file renamed in from a temporary name is taken, the same file
// found again is not taken twice, what is too large or of a refused type goes to failed/ with
// its reason, and sub-folders go to the sub-categories of the same name.

const PDF = (n: number) => Buffer.from(`%PDF-1.4\n% file ${n}\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n`);
let t: TestContext;
let root: string;
let ownerId: number;
let inbox: number;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'quire-watch-'));
  const world = await seededApp(
    {
      users: { owner: { accessType: 'COMPANY ADMIN', signIn: false } },
      categories: { scans: { name: 'Scans' } },
    },
    { INTAKE_FOLDERS: root, MAX_UPLOAD_BYTES: '2048' },
  );
  t = world.t;
  ownerId = world.users.owner.id;
  inbox = world.categories.scans.id;
}, 60_000);
afterAll(async () => {
  await t.close();
  await rm(root, { recursive: true, force: true });
});

async function source(name: string, subfolders = false) {
  const dir = path.join(root, name);
  await mkdir(dir, { recursive: true });
  const row = await t.db.intakeSource.create({
    data: { kind: 'folder', name, categoryId: inbox, ownerId, settings: { path: dir, subfolders } },
  });
  const found = await repo.findSource(t.db, row.id);
  if (!found) throw new Error('no source');
  return { dir, row: found, look: () => pollSource(t.app.deps, found) };
}

const filesNamed = async (name: string) => t.db.file.count({ where: { name } });
const tick = () => new Promise((r) => setTimeout(r, 20));

describe('watched folders', () => {
  it('takes a file only once it stops changing, then moves it to done/', async () => {
    const s = await source('slow');
    const file = path.join(s.dir, 'growing.pdf');
    await writeFile(file, PDF(1).subarray(0, 10));
    expect(await s.look()).toMatchObject({ taken: 0, waiting: 1 });
    await tick();
    await appendFile(file, PDF(1).subarray(10, 30));
    expect(await s.look()).toMatchObject({ taken: 0, waiting: 1 });
    await tick();
    await appendFile(file, PDF(1).subarray(30));
    expect(await s.look()).toMatchObject({ taken: 0, waiting: 1 });
    expect(await filesNamed('growing.pdf')).toBe(0);
    // Unchanged since the last look: taken whole.
    expect(await s.look()).toMatchObject({ taken: 1, waiting: 0 });
    expect(await readdir(s.dir)).toEqual(['done']);
    expect(await readdir(path.join(s.dir, 'done'))).toEqual(['growing.pdf']);
    const taken = await t.db.file.findFirstOrThrow({
      where: { name: 'growing.pdf' },
      include: { currentVersion: true },
    });
    expect(Number(taken.currentVersion?.size)).toBe(PDF(1).length);
    expect(taken).toMatchObject({ categoryId: inbox, ownerId });
    const row = await t.db.intakeSource.findUniqueOrThrow({ where: { id: s.row.id } });
    expect(row).toMatchObject({ state: 'idle', lastError: null, takenCount: 1 });
  });

  it('leaves temporary names alone and takes the file renamed in', async () => {
    const s = await source('rename');
    await writeFile(path.join(s.dir, 'scan.pdf.part'), PDF(2));
    await writeFile(path.join(s.dir, '.hidden.pdf'), PDF(3));
    await s.look();
    expect(await s.look()).toMatchObject({ taken: 0, waiting: 0 });
    await rename(path.join(s.dir, 'scan.pdf.part'), path.join(s.dir, 'scan.pdf'));
    await s.look();
    expect(await s.look()).toMatchObject({ taken: 1 });
    expect(await filesNamed('scan.pdf')).toBe(1);
    expect((await readdir(s.dir)).sort()).toEqual(['.hidden.pdf', 'done']);
  });

  it('takes the same file once: found again (a crash before its move), or looked at by two servers at once', async () => {
    const s = await source('dupes');
    const file = path.join(s.dir, 'twice.pdf');
    await writeFile(file, PDF(4));
    await s.look();
    // Two looks at the same moment (two servers): one takes it, the other finds it claimed.
    const both = await Promise.all([s.look(), pollSource(t.app.deps, s.row)]);
    expect(both.reduce((n, r) => n + (r?.taken ?? 0), 0)).toBe(1);
    expect(await filesNamed('twice.pdf')).toBe(1);
    // The same file back where it was (as if the move had not happened): moved on, not taken.
    await rename(path.join(s.dir, 'done', 'twice.pdf'), file);
    await s.look();
    await s.look();
    expect(await filesNamed('twice.pdf')).toBe(1);
    expect(await readdir(s.dir)).toEqual(['done']);
    expect((await readdir(path.join(s.dir, 'done'))).sort()).toEqual(['twice.pdf']);
    // The same name with new content is a new arrival.
    await writeFile(file, PDF(5));
    await s.look();
    await s.look();
    expect(await filesNamed('twice.pdf')).toBe(2);
    expect((await readdir(path.join(s.dir, 'done'))).sort()).toEqual(['twice (2).pdf', 'twice.pdf']);
  });

  it('moves what is too large or of a refused type to failed/, with the reason beside it', async () => {
    const s = await source('refused');
    await writeFile(path.join(s.dir, 'huge.pdf'), Buffer.concat([PDF(6), Buffer.alloc(4000, 32)]));
    await writeFile(path.join(s.dir, 'tool.exe'), Buffer.concat([Buffer.from('MZ'), Buffer.alloc(300)]));
    await writeFile(path.join(s.dir, 'page.html'), '<!doctype html><script>alert(1)</script>');
    await s.look();
    expect(await s.look()).toMatchObject({ taken: 0, failed: 3 });
    const failed = (await readdir(path.join(s.dir, 'failed'))).sort();
    expect(failed).toEqual([
      'huge.pdf',
      'huge.pdf.reason.txt',
      'page.html',
      'page.html.reason.txt',
      'tool.exe',
      'tool.exe.reason.txt',
    ]);
    expect(await readFile(path.join(s.dir, 'failed', 'huge.pdf.reason.txt'), 'utf8')).toBe(
      'It is larger than the largest upload (0 MB)\n',
    );
    expect(await readFile(path.join(s.dir, 'failed', 'page.html.reason.txt'), 'utf8')).toContain('text/html');
    expect(await t.db.file.count({ where: { name: { in: ['huge.pdf', 'tool.exe', 'page.html'] } } })).toBe(0);
    const arrivals = await t.db.intakeArrival.findMany({
      where: { sourceId: s.row.id },
      orderBy: { fileName: 'asc' },
    });
    expect(arrivals.map((a) => [a.fileName, a.status])).toEqual([
      ['huge.pdf', 'failed'],
      ['page.html', 'failed'],
      ['tool.exe', 'failed'],
    ]);
    expect((await t.db.intakeSource.findUniqueOrThrow({ where: { id: s.row.id } })).failedCount).toBe(3);
  });

  it('files sub-folders into the sub-categories of the same name; one with no such category fails', async () => {
    const { child, grandchild } = (
      await seed(t, {
        categories: {
          child: { name: 'Letters', parent: { id: inbox } },
          grandchild: { name: '2026', parent: 'child' },
        },
      })
    ).categories;
    const s = await source('tree', true);
    await mkdir(path.join(s.dir, 'letters', '2026'), { recursive: true });
    await mkdir(path.join(s.dir, 'Unknown'), { recursive: true });
    await writeFile(path.join(s.dir, 'letters', 'a.pdf'), PDF(7));
    await writeFile(path.join(s.dir, 'letters', '2026', 'b.pdf'), PDF(8));
    await writeFile(path.join(s.dir, 'Unknown', 'c.pdf'), PDF(9));
    await s.look();
    expect(await s.look()).toMatchObject({ taken: 2, failed: 1 });
    expect((await t.db.file.findFirstOrThrow({ where: { name: 'a.pdf' } })).categoryId).toBe(child.id);
    expect((await t.db.file.findFirstOrThrow({ where: { name: 'b.pdf' } })).categoryId).toBe(grandchild.id);
    expect(await readdir(path.join(s.dir, 'done', 'letters', '2026'))).toEqual(['b.pdf']);
    expect(await readFile(path.join(s.dir, 'failed', 'Unknown', 'c.pdf.reason.txt'), 'utf8')).toBe(
      'There is no sub-category "Unknown" under "Scans"\n',
    );
    // Without the flag, sub-folders are not looked into.
    const flat = await source('flat');
    await mkdir(path.join(flat.dir, 'letters'));
    await writeFile(path.join(flat.dir, 'letters', 'd.pdf'), PDF(10));
    await flat.look();
    expect(await flat.look()).toMatchObject({ taken: 0, waiting: 0 });
  });

  it('a folder that is gone puts the source in error with the reason, and back when it returns', async () => {
    const s = await source('vanishing');
    await rm(s.dir, { recursive: true });
    expect(await s.look()).toBeNull();
    const row = await t.db.intakeSource.findUniqueOrThrow({ where: { id: s.row.id } });
    expect(row.state).toBe('error');
    expect(row.lastError).toContain('does not exist');
    await mkdir(s.dir);
    await s.look();
    expect((await t.db.intakeSource.findUniqueOrThrow({ where: { id: s.row.id } })).state).toBe('idle');
  });
});
