import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, utimes } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { TEST_PASSWORD } from '../../../test/factories.js';
import { seededApp } from '../../../test/seed.js';
import { BLOB_GRACE_MS } from '../../lib/blob-collector.js';

// BACKUP_DIR: archives on a path (a disk, a volume) of their own, apart from the blob store
// whose data they protect. Unset (every other backup test), they stay in the blob store.

const clock = new Date('2026-11-20T10:00:00.000Z');
let t: TestContext;
let admin: string;
let backupDir: string;

const proof = { password: TEST_PASSWORD };
const where = (dir: string, id: string) => path.join(dir, id.slice(0, 2), id.slice(2, 4), id);

async function makeBackup(): Promise<{ id: number; blobId: string }> {
  const res = await callAs(t, admin, { method: 'POST', url: '/api/create_backup' });
  expect(res.statusCode).toBe(200);
  await t.app.jobs.runDue();
  const row = await t.db.backup.findUniqueOrThrow({ where: { id: res.json().data.id } });
  expect(row.status).toBe('succeeded');
  return { id: row.id, blobId: row.blobId as string };
}

beforeAll(async () => {
  backupDir = await mkdtemp(path.join(os.tmpdir(), 'quire-backup-dir-'));
  const world = await seededApp(
    {
      users: { admin: { accessType: 'COMPANY ADMIN' } },
      categories: { contracts: { name: 'Contracts' } },
      files: {
        a: { owner: 'admin', category: 'contracts', name: 'a.bin', content: Buffer.alloc(50_000, 7) },
      },
    },
    { APP_SECRET: 'backup-dir-tests-secret-0123456789', BACKUP_DIR: backupDir },
    { now: () => clock },
  );
  t = world.t;
  admin = world.users.admin.token;
});
afterAll(async () => {
  await t.close();
  await rm(backupDir, { recursive: true, force: true });
});

describe('BACKUP_DIR', () => {
  it('keeps the archive in its own folder, never in the blob store, and downloads it from there', async () => {
    const { id, blobId } = await makeBackup();
    expect(existsSync(where(backupDir, blobId))).toBe(true);
    expect(existsSync(where(t.app.deps.config.storageDir, blobId))).toBe(false);
    const res = await callAs(t, admin, {
      method: 'POST',
      url: `/api/download_backup_file/${id}`,
      payload: proof,
    });
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(await readFile(where(backupDir, blobId)))).toBe(true);
  });

  it('a later backup leaves out a deleted archive, and the folder is swept of it once old', async () => {
    const first = await makeBackup();
    const del = await callAs(t, admin, { method: 'POST', url: `/api/delete_backup_file/${first.id}` });
    expect(del.statusCode).toBe(200);
    // Deleted but young: kept (it could be an archive being written), and not in the next backup.
    await t.app.deps.background.drain();
    expect(existsSync(where(backupDir, first.blobId))).toBe(true);
    // Older than the grace period: the next backup job sweeps it away.
    const old = new Date(clock.getTime() - BLOB_GRACE_MS - 60_000);
    await utimes(where(backupDir, first.blobId), old, old);
    const second = await makeBackup(); // its job sweeps the folder
    expect(existsSync(where(backupDir, first.blobId))).toBe(false);
    expect(existsSync(where(backupDir, second.blobId))).toBe(true);
  });

  it('is resolved from the Quire folder and unset by default', () => {
    expect(t.app.deps.config.backupDir).toBe(backupDir);
    expect(t.app.deps.backups).toBeDefined();
  });
});
