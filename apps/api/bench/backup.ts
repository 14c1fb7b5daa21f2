// pnpm bench:backup [-- --gb 5 --blob-mb 16 --rounds 3]
//
// Backup and restore of a blob store of the given size, each as a ratio of `tar` on the same
// tree in the same run (decision 013: the goal is at least 50%, that is Quire taking at most
// twice tar's time). Runs the real app on a throw-away embedded PostgreSQL.
//
//   backup:  create_backup, run by the job runner (every blob and table into one archive in
//            the blob store: hashed, fsynced)  vs  tar -cf of the blob folder, then sync of it
//   restore: the restore job into a second, empty blob store and database (reads the archive
//            twice: every checksum verified first, then blobs stored and tables COPYed in one
//            transaction)  vs  tar -xf of that tar into an empty folder, then sync
//
// The disk of a virtual machine is noisy (the same write can take twice as long a minute
// later), so tar and Quire take turns, `--rounds` times, and the medians are compared.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { link, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase, createDb, migrate, startEmbeddedPostgres, withDatabase } from '@quire/db';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createUser, loginAs, TEST_PASSWORD } from '../test/factories.js';
import { median } from './stats.js';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    gb: { type: 'string', default: '5' },
    'blob-mb': { type: 'string', default: '16' },
    rounds: { type: 'string', default: '3' },
  },
});
const totalBytes = Math.round(Number(values.gb) * 1024 ** 3);
const blobBytes = Math.round(Number(values['blob-mb']) * 1024 ** 2);
const blobCount = Math.max(1, Math.ceil(totalBytes / blobBytes));
const rounds = Math.max(1, Number(values.rounds));

const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-backup-'));
const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg') });
const seconds = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e9;
const time = async (fn: () => unknown) => {
  const start = process.hrtime.bigint();
  await fn();
  return seconds(start);
};
const sh = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: 'inherit' });

try {
  const apps = [];
  for (const name of ['source', 'target']) {
    await createDatabase(pg.adminUrl, name);
    const url = withDatabase(pg.adminUrl, name);
    await migrate(url);
    const db = createDb(url);
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      DATA_DIR: path.join(dir, name),
      QUIRE_ROLE: 'api',
      APP_SECRET: 'bench-backup-secret-0123456789',
    });
    const app = await buildApp({ config, db });
    const admin = await createUser(db, { accessType: 'COMPANY ADMIN', username: `${name}.admin` });
    apps.push({ app, db, config, token: await loginAs(app, admin) });
  }
  const [source, target] = apps as [(typeof apps)[0], (typeof apps)[0]];

  console.info(
    `Writing ${blobCount} blobs of ${values['blob-mb']} MiB (${values.gb} GiB) into the blob store…`,
  );
  const base = randomBytes(blobBytes);
  for (let i = 0; i < blobCount; i++) {
    base.writeUInt32BE(i, 0); // every blob different
    const size = Math.min(blobBytes, totalBytes - i * blobBytes);
    const stored = await source.app.deps.blobs.put(base.subarray(0, size));
    await source.db.blob.create({
      data: { id: stored.id, size: stored.size, mimeType: 'application/octet-stream' },
    });
  }
  sh('sync', []);

  const blobDir = source.config.storageDir;
  const tarFile = path.join(dir, 'baseline.tar');
  const extractDir = path.join(dir, 'baseline-extract');
  const sourceAuth = { authorization: `Bearer ${source.token}` };
  const archiveIn = (store: string, id: string) => path.join(store, id.slice(0, 2), id.slice(2, 4), id);
  const times = {
    tarBackup: [] as number[],
    quireBackup: [] as number[],
    tarRestore: [] as number[],
    quireRestore: [] as number[],
  };
  let backup = await source.db.backup.findFirst({ where: { id: -1 } });

  for (let round = 1; round <= rounds; round++) {
    // Backup. Both sides end on disk: Quire fsyncs its archive, so tar's is synced too.
    await rm(tarFile, { force: true });
    sh('sync', []);
    times.tarBackup.push(
      await time(() => {
        sh('tar', ['-cf', tarFile, '-C', blobDir, '--exclude', './tmp', '.']);
        sh('sync', [tarFile]);
      }),
    );
    if (backup?.blobId) {
      // The archive of the round before goes: each round writes a whole new one.
      await source.db.backup.delete({ where: { id: backup.id } });
      await source.db.blob.delete({ where: { id: backup.blobId } });
      await rm(archiveIn(source.config.storageDir, backup.blobId), { force: true });
    }
    sh('sync', []);
    times.quireBackup.push(
      await time(async () => {
        const res = await source.app.inject({
          method: 'POST',
          url: '/api/create_backup',
          headers: sourceAuth,
        });
        if (res.statusCode !== 200) throw new Error(res.body);
        await source.app.jobs.runDue();
      }),
    );
    backup = await source.db.backup.findFirstOrThrow({ orderBy: { id: 'desc' } });
    if (backup.status !== 'succeeded' || !backup.blobId)
      throw new Error(`backup ${backup.status}: ${backup.error}`);

    // Restore, each into an empty place.
    await rm(extractDir, { recursive: true, force: true });
    await mkdir(extractDir);
    sh('sync', []);
    times.tarRestore.push(
      await time(() => {
        sh('tar', ['-xf', tarFile, '-C', extractDir]);
        sh('sync', ['-f', extractDir]);
      }),
    );
    await rm(extractDir, { recursive: true, force: true });
    // The target's blob store holds only the archive, as an upload would leave it.
    await rm(target.config.storageDir, { recursive: true, force: true });
    const id = backup.blobId;
    await mkdir(path.dirname(archiveIn(target.config.storageDir, id)), { recursive: true });
    await link(archiveIn(source.config.storageDir, id), archiveIn(target.config.storageDir, id));
    await target.db.blob.upsert({
      where: { id },
      create: { id, size: backup.size ?? 0n, mimeType: 'application/x-tar' },
      update: {},
    });
    const row = await target.db.backup.create({
      data: { kind: 'uploaded', status: 'succeeded', blobId: id, size: backup.size, fileName: 'bench.tar' },
    });
    sh('sync', []);
    times.quireRestore.push(
      await time(async () => {
        const res = await target.app.inject({
          method: 'POST',
          url: `/api/restore_backup/${row.id}`,
          headers: { authorization: `Bearer ${target.token}` },
          payload: { password: TEST_PASSWORD, confirmation: 'RESTORE' },
        });
        if (res.statusCode !== 200) throw new Error(res.body);
        await target.app.jobs.runDue();
      }),
    );
    const restored = await target.db.backup.findUniqueOrThrow({ where: { id: row.id } });
    if (restored.status !== 'restored') throw new Error(`restore: ${restored.error}`);
    // A restore brings the source's users back: sign in again for the next round.
    target.token = await loginAs(
      target.app,
      await target.db.user.findFirstOrThrow({ where: { username: 'source.admin' } }),
    );
    console.info(
      `round ${round}: backup Quire ${times.quireBackup.at(-1)!.toFixed(1)} s, tar ${times.tarBackup.at(-1)!.toFixed(1)} s; ` +
        `restore Quire ${times.quireRestore.at(-1)!.toFixed(1)} s, tar ${times.tarRestore.at(-1)!.toFixed(1)} s`,
    );
  }
  if (!backup) throw new Error('no backup made');
  const [quireBackup, tarBackup, quireRestore, tarRestore] = [
    median(times.quireBackup),
    median(times.tarBackup),
    median(times.quireRestore),
    median(times.tarRestore),
  ];

  const gib = Number(backup.size) / 1024 ** 3;
  const line = (label: string, quire: number, tar: number) =>
    `${label.padEnd(8)} Quire ${quire.toFixed(1).padStart(6)} s   tar ${tar.toFixed(1).padStart(6)} s   tar/Quire ${((100 * tar) / quire).toFixed(0).padStart(3)}%   (${(gib / quire).toFixed(2)} GiB/s)`;
  console.info(
    `\nBlob store: ${blobCount} blobs, ${values.gb} GiB; archive ${gib.toFixed(2)} GiB; medians of ${rounds} rounds`,
  );
  console.info(line('backup', quireBackup, tarBackup));
  console.info(line('restore', quireRestore, tarRestore));
  console.info('(goal: tar/Quire at least 50%)');
  for (const a of apps) {
    await a.app.close();
    await a.db.$disconnect();
  }
} finally {
  await pg.stop();
  await rm(dir, { recursive: true, force: true });
}
