import { createHash } from 'node:crypto';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Db } from '@quire/db';
import { generate, generateSecret } from 'otplib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPANY_ADMIN_WRITES, callAs, callerToken } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { loginAs, TEST_PASSWORD } from '../../../test/factories.js';
import { multipart } from '../../../test/multipart.js';
import { person, type SeededUser, seededApp } from '../../../test/seed.js';
import { auditKeyOf, verifyChain } from '../../lib/audit-chain.js';
import { CRON_NEVER_DUE } from '../../lib/jobs/schedules.js';
import { encryptSecret } from '../../lib/secrets.js';
import { blobEntryName, type Manifest, readArchive, signManifest } from './backup.archive.js';
import { archiveKey } from './backup.engine.js';

const APP_SECRET = 'backup-tests-secret-0123456789';
let clock = new Date('2026-11-20T10:00:00.000Z');
let t: TestContext;
let admin: string;
let adminUser: SeededUser;

const proof = { password: TEST_PASSWORD };
const list = (token = admin) => callAs(t, token, { method: 'GET', url: '/api/backup' });
const files = (token = admin) => callAs(t, token, { method: 'GET', url: '/api/backup-files' });
const create = (ctx: TestContext = t, token = admin) =>
  callAs(ctx, token, { method: 'POST', url: '/api/create_backup' });
const download = (id: number, body: object = proof, ctx: TestContext = t, token = admin) =>
  callAs(ctx, token, { method: 'POST', url: `/api/download_backup_file/${id}`, payload: body });
const upload = (ctx: TestContext, token: string, content: Buffer, fields: Record<string, string> = proof) => {
  const body = multipart({
    ...fields,
    file: { content, filename: 'archive.tar', contentType: 'application/x-tar' },
  });
  return callAs(ctx, token, {
    method: 'POST',
    url: '/api/upload_backup',
    payload: body.payload,
    headers: body.headers,
  });
};
const restore = (
  ctx: TestContext,
  token: string,
  id: number,
  body: object = { ...proof, confirmation: 'RESTORE' },
) => callAs(ctx, token, { method: 'POST', url: `/api/restore_backup/${id}`, payload: body });

/** Runs a backup to its end; answers its row as the API shows it. */
async function makeBackup(ctx: TestContext = t, token = admin) {
  const res = await create(ctx, token);
  expect(res.statusCode).toBe(200);
  await ctx.app.jobs.runDue();
  const row = (await callAs(ctx, token, { method: 'GET', url: '/api/backup' }))
    .json()
    .data.items.find((b: { id: number }) => b.id === res.json().data.id);
  return row;
}

/** Every row of a table, in a stable order, as text. */
async function rowsOf(db: Db, table: string, where = 'TRUE'): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<Array<{ r: string }>>(
    `SELECT to_jsonb(x)::text AS r FROM "${table}" x WHERE ${where} ORDER BY 1`,
  );
  return rows.map((r) => r.r);
}

async function dataTables(db: Db): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ t: string }>>`
    SELECT table_name AS t FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE'
      AND table_name NOT IN ('jobs', 'job_schedules', 'backups', '_prisma_migrations',
                             'category_rights_cache', 'category_rights_epoch', 'file_sets_epoch') ORDER BY 1`;
  return rows.map((r) => r.t);
}

/** Reads an archive into { name -> bytes } (small test archives only). */
async function unpack(archive: Buffer): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: unknown) => chunks.push(c as Buffer));
      stream.on('end', () => {
        out.set(header.name, Buffer.concat(chunks));
        next();
      });
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  extract.end(archive);
  await done;
  return out;
}

/** Packs entries (in order) into a tar; `manifest` recomputes the checksums of the parts it names. */
async function pack(entries: Array<[string, Buffer] | { name: string; type: 'symlink'; linkname: string }>) {
  const p = tar.pack();
  const chunks: Buffer[] = [];
  p.on('data', (c: unknown) => chunks.push(c as Buffer));
  const ended = new Promise<void>((r) => p.on('end', () => r()));
  for (const e of entries) {
    if (Array.isArray(e)) p.entry({ name: e[0] }, e[1]);
    else p.entry({ name: e.name, type: e.type, linkname: e.linkname });
  }
  p.finalize();
  await ended;
  return Buffer.concat(chunks);
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * Rebuilds an archive from its parts with a manifest whose checksums fit the (changed) parts,
 * signed with `signWith` (this installation's key by default; null: the old signature stays).
 */
async function repack(
  parts: Map<string, Buffer>,
  change: (m: Manifest) => void = () => {},
  signWith: { key: Buffer; id: string } | null = archiveKey(t.app.deps),
) {
  const manifest = JSON.parse(parts.get('manifest.json')!.toString()) as Manifest;
  manifest.parts = manifest.parts.map((p) => ({
    ...p,
    size: parts.get(p.path)!.length,
    sha256: sha(parts.get(p.path)!),
  }));
  change(manifest);
  const entries: Array<[string, Buffer]> = [...parts].filter(
    ([n]) => n !== 'manifest.json' && n !== 'manifest.sig',
  );
  const json = Buffer.from(JSON.stringify(manifest));
  entries.push(['manifest.json', json]);
  if (signWith) entries.push(['manifest.sig', signManifest(signWith.key, signWith.id, json)]);
  else if (parts.has('manifest.sig')) entries.push(['manifest.sig', parts.get('manifest.sig')!]);
  return pack(entries);
}

beforeAll(async () => {
  const file = (i: number) => ({
    owner: 'owner' as const,
    category: 'contracts' as const,
    name: `file-${i}.bin`,
    content: Buffer.concat([Buffer.from(`file ${i} `), Buffer.alloc(70_000 * (i + 1), i + 1)]),
  });
  // Some data of every kind: people, a group, categories and files with their blobs.
  const world = await seededApp(
    {
      users: {
        admin: { accessType: 'COMPANY ADMIN' },
        owner: { firstName: 'Zoë', lastName: "O'Brien\ttab\nnewline\\slash", signIn: false },
      },
      groups: { auditors: { name: 'Auditors', description: 'NULL \\N and "quotes"', members: [] } },
      categories: {
        contracts: { name: 'Contracts', grants: { owner: ['edit'] } },
        sub: { name: 'Sub', parent: 'contracts' },
      },
      files: { file0: file(0), file1: file(1), file2: file(2) },
    },
    { APP_SECRET },
    { now: () => clock },
  );
  ({
    t,
    users: { admin: adminUser },
  } = world);
  admin = adminUser.token;
});
afterAll(() => t.close());

describe('backups: who may', () => {
  it('reads for Settings readers, writes and downloads for the Company Admin only', async () => {
    const before = await t.db.backup.count();
    for (const [label, accessType, role, read, write] of COMPANY_ADMIN_WRITES) {
      const token = await callerToken(t, accessType, role);
      const got = [
        (await callAs(t, token, { method: 'GET', url: '/api/backup' })).statusCode,
        (await callAs(t, token, { method: 'GET', url: '/api/backup-files' })).statusCode,
        (await callAs(t, token, { method: 'POST', url: '/api/create_backup' })).statusCode,
        (
          await callAs(t, token, {
            method: 'POST',
            url: '/api/schedule_backup',
            payload: { enabled: true, frequency: 'daily', keep_last: 3 },
          })
        ).statusCode,
        (await callAs(t, token, { method: 'POST', url: '/api/delete_backup/1' })).statusCode,
        (await callAs(t, token, { method: 'POST', url: '/api/delete_backup_file/1' })).statusCode,
        (await callAs(t, token, { method: 'POST', url: '/api/download_backup_file/1', payload: proof }))
          .statusCode,
        (
          await callAs(t, token, {
            method: 'POST',
            url: '/api/restore_backup/1',
            payload: { ...proof, confirmation: 'RESTORE' },
          })
        ).statusCode,
      ];
      expect(`${label} ${got.join(' ')}`).toBe(
        `${label} ${[read, read, write, write, write, write, write, write].join(' ')}`,
      );
    }
    expect(await t.db.backup.count()).toBe(before);
    expect(await t.db.backupSchedule.count()).toBe(0);
  });
});

describe('making a backup', () => {
  let backupId: number;
  it('runs as a job and lists the archive with its size, creator and verification', async () => {
    const res = await create();
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ kind: 'manual', status: 'queued', has_file: false });
    // One at a time.
    const again = await create();
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('backup.busy');
    await t.app.jobs.runDue();
    const row = (await list()).json().data.items[0];
    backupId = row.id;
    expect(row).toMatchObject({
      status: 'succeeded',
      progress: 100,
      has_file: true,
      requested_by: adminUser.username,
    });
    expect(row.file_name).toMatch(/^quire-backup-\d{8}-\d{6}\.tar$/);
    expect(row.migration).toMatch(/^\d{4}_/);
    const archives = (await files()).json().data;
    expect(archives[0]).toMatchObject({
      id: backupId,
      created_by: adminUser.username,
      quire_version: '0.1.0',
    });
    expect(archives[0].verified_at).not.toBeNull();
  });

  it('the archive has every blob, every table and a manifest with row counts and checksums', async () => {
    const res = await download(backupId);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-tar');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="quire-backup-/);
    const parts = await unpack(res.rawPayload);
    const manifest = JSON.parse(parts.get('manifest.json')!.toString()) as Manifest;
    const blobRows = await t.db.blob.findMany({ where: { backups: { none: {} } } });
    expect(manifest.blobs.count).toBe(blobRows.length);
    for (const b of blobRows) expect(sha(parts.get(blobEntryName(b.id))!)).toBe(b.id);
    expect(manifest.tables.find((x) => x.name === 'users')!.rows).toBe(await t.db.user.count());
    expect(manifest.tables.map((x) => x.name)).not.toContain('jobs');
    // Parents come before the tables that point at them.
    const order = manifest.tables.map((x) => x.name);
    expect(order.indexOf('companies')).toBeLessThan(order.indexOf('users'));
    expect(order.indexOf('users')).toBeLessThan(order.indexOf('files'));
    for (const p of manifest.parts) expect(sha(parts.get(p.path)!)).toBe(p.sha256);
    expect(await t.db.auditEvent.count({ where: { action: 'backup.downloaded' } })).toBe(1);
  });

  it('download asks for the password again, and the 2FA code when the admin has 2FA', async () => {
    const wrong = await download(backupId, { password: 'not-it' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0].path).toBe('body.password');
    const missing = await download(backupId, {});
    expect(missing.statusCode).toBe(400);
    expect(await t.db.auditEvent.count({ where: { action: 'reauth.failed' } })).toBe(1);

    const secret = generateSecret();
    const u = await person(t, { accessType: 'COMPANY ADMIN' });
    await t.db.user.update({
      where: { id: u.id },
      data: { twoFactorEnabled: true, twoFactorSecret: encryptSecret(t.app.deps.secretKey, secret) },
    });
    // The session was opened before 2FA was on: sign in again and verify.
    const s2 = await loginAs(t.app, u);
    const code = () => generate({ secret, epoch: Math.floor(clock.getTime() / 1000) });
    await callAs(t, s2, { method: 'POST', url: '/api/users/verify2fa', payload: { code: await code() } });
    const noCode = await download(backupId, proof, t, s2);
    expect(noCode.statusCode).toBe(400);
    expect(noCode.json().errors[0].path).toBe('body.code');
    const badCode = await download(backupId, { ...proof, code: '000000' }, t, s2);
    expect(badCode.statusCode).toBe(400);
    clock = new Date(clock.getTime() + 60_000);
    const ok = await download(backupId, { ...proof, code: await code() }, t, s2);
    expect(ok.statusCode).toBe(200);
  });

  it('refuses unknown backups (404) and deleted archives (409)', async () => {
    expect((await download(999999)).statusCode).toBe(404);
    expect((await restore(t, admin, 999999)).statusCode).toBe(404);
  });
});

describe('restoring into a fresh data directory', () => {
  it('gives byte-identical blobs and identical rows', async () => {
    const backup = await makeBackup();
    // The source as the snapshot saw it (nothing but the backup's own bookkeeping changes after).
    const tables = await dataTables(t.db);
    const before = new Map<string, string[]>();
    const archiveIds = (await t.db.backup.findMany({ select: { blobId: true } })).flatMap((b) =>
      b.blobId ? [b.blobId] : [],
    );
    const notArchive = `id NOT IN (${archiveIds.map((id) => `'${id}'`).join(',') || "''"})`;
    for (const table of tables)
      before.set(
        table,
        await rowsOf(
          t.db,
          table,
          table === 'blobs'
            ? notArchive
            : table === 'audit_events'
              ? `action NOT IN ('backup.created')`
              : 'TRUE',
        ),
      );
    const archive = (await download(backup.id)).rawPayload;

    const {
      t: fresh,
      users: {
        freshAdmin: { token },
      },
    } = await seededApp(
      { users: { freshAdmin: { accessType: 'COMPANY ADMIN', username: 'fresh.admin' } } },
      {
        APP_SECRET,
      },
    );
    try {
      const up = await upload(fresh, token, archive);
      expect(up.statusCode).toBe(200);
      expect(up.json().data).toMatchObject({ kind: 'uploaded', status: 'succeeded', has_file: true });
      const typo = await restore(fresh, token, up.json().data.id, { ...proof, confirmation: 'restore' });
      expect(typo.statusCode).toBe(400);
      expect(typo.json().errors[0].path).toBe('body.confirmation');
      const res = await restore(fresh, token, up.json().data.id);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.status).toBe('restoring');
      await fresh.app.jobs.runDue();

      for (const table of tables) {
        const freshArchive = (await fresh.db.backup.findMany()).flatMap((b) =>
          b.blobId ? [`'${b.blobId}'`] : [],
        );
        const where =
          table === 'blobs'
            ? `id NOT IN (${freshArchive.join(',') || "''"})`
            : table === 'audit_events'
              ? `action NOT IN ('backup.created', 'backup.restored')`
              : 'TRUE';
        expect({ table, rows: await rowsOf(fresh.db, table, where) }).toEqual({
          table,
          rows: before.get(table),
        });
      }
      const blobs = await t.db.blob.findMany({ where: { backups: { none: {} } } });
      expect(blobs.length).toBeGreaterThanOrEqual(3);
      for (const b of blobs) {
        const a = Buffer.concat(await (await t.app.deps.blobs.read(b.id)).toArray());
        const c = Buffer.concat(await (await fresh.app.deps.blobs.read(b.id)).toArray());
        expect(c.equals(a)).toBe(true);
      }
      // The restored system goes on: ids continue past the restored ones, the restore is listed.
      const row = await fresh.db.backup.findUniqueOrThrow({ where: { id: up.json().data.id } });
      expect(row.status).toBe('restored');
      const g = await fresh.db.group.create({ data: { name: 'After restore' } });
      expect(g.id).toBeGreaterThan(Math.max(...(await t.db.group.findMany()).map((x) => x.id)));
      expect(await fresh.db.auditEvent.count({ where: { action: 'backup.restored' } })).toBe(1);
      // The audit trail came back with its hash chain, and the restore's own event is sealed onto it.
      expect(await verifyChain(fresh.db, { key: auditKeyOf(fresh.app.deps.secretKey) })).toMatchObject({
        ok: true,
      });
    } finally {
      await fresh.close();
    }
  });

  it('restore here: data changed after the backup comes back as it was', async () => {
    const backup = await makeBackup();
    const group = await t.db.group.create({ data: { name: 'Made after the backup' } });
    await t.db.user.update({ where: { id: adminUser.id }, data: { firstName: 'Changed' } });
    const res = await restore(t, admin, backup.id);
    expect(res.statusCode).toBe(200);
    expect((await create()).statusCode).toBe(409); // nothing else while it restores
    await t.app.jobs.runDue();
    expect(await t.db.group.findUnique({ where: { id: group.id } })).toBeNull();
    expect((await t.db.user.findUniqueOrThrow({ where: { id: adminUser.id } })).firstName).toBe('Test');
    // The backups list of this system is kept.
    expect((await list()).json().data.items.length).toBeGreaterThanOrEqual(3);
    expect((await list()).json().data.items.find((b: { id: number }) => b.id === backup.id).status).toBe(
      'restored',
    );
  });
});

describe('archives that are refused', () => {
  let good: Map<string, Buffer>;
  beforeAll(async () => {
    const backup = await makeBackup();
    good = await unpack((await download(backup.id)).rawPayload);
  });

  const refusedUpload = async (archive: Buffer, reason: RegExp) => {
    const before = await t.db.backup.count();
    const res = await upload(t, admin, archive);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'backup.invalid_archive', errors: [{ path: 'body.file' }] });
    expect(res.json().message).toMatch(reason);
    expect(await t.db.backup.count()).toBe(before);
  };

  it('a changed byte, a missing or extra part, or not an archive at all', async () => {
    const blobName = [...good.keys()].find((n) => n.startsWith('blobs/'))!;
    const flipped = new Map(good);
    const bytes = Buffer.from(flipped.get(blobName)!);
    bytes[10] = (bytes[10] ?? 0) ^ 1;
    flipped.set(blobName, bytes);
    await refusedUpload(await pack([...flipped]), /does not match its checksum/);

    const table = new Map(good);
    table.set('database/groups.tsv', Buffer.concat([good.get('database/groups.tsv')!, Buffer.from('x')]));
    await refusedUpload(await pack([...table]), /groups\.tsv does not match its checksum in the manifest/);

    // The same size, one byte different: only the part's sha256 tells.
    const sameSize = new Map(good);
    const groups = Buffer.from(good.get('database/groups.tsv')!);
    const at = groups.indexOf('Auditors');
    groups[at] = 'a'.charCodeAt(0);
    sameSize.set('database/groups.tsv', groups);
    await refusedUpload(await pack([...sameSize]), /groups\.tsv does not match its checksum in the manifest/);

    const missing = new Map(good);
    missing.delete('database/users.tsv');
    await refusedUpload(
      await pack([...missing]),
      /lists database\/users\.tsv, which the archive does not have/,
    );

    await refusedUpload(
      await pack([...good, ['database/extra.tsv', Buffer.from('1\n')]]),
      /manifest does not list/,
    );
    await refusedUpload(
      Buffer.from('this is not a tar file at all, just some text '.repeat(30)),
      /not a complete backup archive|no manifest/,
    );
  });

  it('an edited archive whose checksums were recomputed: refused, unsigned or signed elsewhere too', async () => {
    // What an attacker does: change the data (a seat-limitless licence, the vendor's password
    // hash, the audit trail), recompute every checksum of the manifest, upload.
    const edited = new Map(good);
    edited.set(
      'database/groups.tsv',
      Buffer.concat([good.get('database/groups.tsv')!, Buffer.from('999999\tForged\t\\N\n')]),
    );
    const groupsBefore = await rowsOf(t.db, 'groups');
    await refusedUpload(await repack(edited, () => {}, null), /does not match its signature.*altered/);
    const unsigned = new Map(edited);
    unsigned.delete('manifest.sig');
    await refusedUpload(await repack(unsigned, () => {}, null), /not signed/);
    // Signed, but with a key derived from another APP_SECRET.
    const other = archiveKey({ secretKey: createHash('sha256').update('another installation').digest() });
    await refusedUpload(await repack(edited, () => {}, other), /another Quire installation/);
    expect(await rowsOf(t.db, 'groups')).toEqual(groupsBefore);
    expect(
      await t.db.auditEvent.count({
        where: { action: 'backup.upload_refused', message: { contains: 'signature' } },
      }),
    ).toBeGreaterThanOrEqual(1);
    // Signed here, the same edit is taken (the signature is what decides, not the checksums).
    expect((await upload(t, admin, await repack(edited))).statusCode).toBe(200);
  });

  it('entries that leave the target folder, absolute paths and links (zip-slip)', async () => {
    await refusedUpload(
      await pack([['../../etc/cron.d/evil', Buffer.from('x')], ...good]),
      /leaves the target folder/,
    );
    await refusedUpload(
      await pack([['blobs/../../evil', Buffer.from('x')], ...good]),
      /leaves the target folder/,
    );
    await refusedUpload(await pack([['/etc/passwd', Buffer.from('x')], ...good]), /absolute path/);
    await refusedUpload(
      await pack([{ name: 'blobs/link', type: 'symlink', linkname: '/etc/passwd' }, ...good]),
      /only plain files/,
    );
  });

  it('an archive from a newer schema is listed but not restored; nothing changes', async () => {
    const newer = await repack(new Map(good), (m) => {
      m.migration = '9999_from_the_future';
      m.migrations.push('9999_from_the_future');
    });
    const up = await upload(t, admin, newer);
    expect(up.statusCode).toBe(200);
    const groups = await rowsOf(t.db, 'groups');
    expect((await restore(t, admin, up.json().data.id)).statusCode).toBe(200);
    await t.app.jobs.runDue();
    const row = await t.db.backup.findUniqueOrThrow({ where: { id: up.json().data.id } });
    expect(row.status).toBe('succeeded');
    expect(row.error).toMatch(/newer Quire \(database schema 9999_from_the_future\)/);
    expect(await rowsOf(t.db, 'groups')).toEqual(groups);
  });

  it('a restore that fails half way (rows that break a constraint) changes nothing', async () => {
    const parts = new Map(good);
    const users = parts.get('database/users.tsv')!;
    parts.set('database/users.tsv', Buffer.concat([users, users])); // every id twice
    // A blob that is not in this store yet, to see it is not left behind.
    const extra = Buffer.from(`a blob only the broken archive has ${Date.now()}`);
    parts.set(blobEntryName(sha(extra)), extra);
    const broken = await repack(parts, (m) => {
      m.parts.push({ path: blobEntryName(sha(extra)), size: extra.length, sha256: sha(extra) });
    });
    const up = await upload(t, admin, broken);
    expect(up.statusCode).toBe(200);
    await t.db.group.create({ data: { name: 'Still here after a failed restore' } });
    const snapshot = async () =>
      Promise.all(['users', 'groups', 'files', 'blobs'].map((x) => rowsOf(t.db, x)));
    const before = await snapshot();
    expect((await restore(t, admin, up.json().data.id)).statusCode).toBe(200);
    await t.app.jobs.runDue();
    const row = await t.db.backup.findUniqueOrThrow({ where: { id: up.json().data.id } });
    expect(row.error).toMatch(/^Restore failed, nothing was changed: .*duplicate key/);
    expect(await snapshot()).toEqual(before);
    expect(await t.app.deps.blobs.exists(sha(extra))).toBe(false);
  });

  it('reads the archive entry by entry without unpacking it (readArchive streams)', async () => {
    const names: string[] = [];
    await readArchive(Readable.from([await pack([...good])]), async (e) => {
      names.push(e.name);
    });
    expect(names.slice(-2)).toEqual(['manifest.json', 'manifest.sig']);
  });
});

describe('a restore checks the stored archive before it answers', () => {
  /** Replaces the stored content of backup `id`'s archive (its name, the content address, stays). */
  async function alterStored(id: number, change: (archive: Buffer) => Buffer | Promise<Buffer>) {
    const row = await t.db.backup.findUniqueOrThrow({ where: { id } });
    const blob = row.blobId as string;
    const file = path.join(t.app.deps.config.storageDir, blob.slice(0, 2), blob.slice(2, 4), blob);
    await chmod(file, 0o600);
    await writeFile(file, await change(await readFile(file)));
  }

  const queued = () => t.db.job.count({ where: { kind: 'backup.restore' } });

  async function refusedRestore(id: number, reason: RegExp) {
    const before = { jobs: await queued(), row: await t.db.backup.findUniqueOrThrow({ where: { id } }) };
    const res = await restore(t, admin, id);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'backup.invalid_archive', errors: [{ path: 'params.id' }] });
    expect(res.json().message).toMatch(/^This backup cannot be restored, nothing was changed: /);
    expect(res.json().message).toMatch(reason);
    expect(await queued()).toBe(before.jobs);
    expect(await t.db.backup.findUniqueOrThrow({ where: { id } })).toEqual(before.row);
    const event = await t.db.auditEvent.findFirstOrThrow({
      where: { action: 'backup.restore_failed', targetId: String(id) },
      orderBy: { id: 'desc' },
    });
    expect(event.message).toMatch(/refused before it started/);
    expect(event.message).toMatch(reason);
  }

  it('answers 400 for a manifest edited in the store, audited, with nothing queued', async () => {
    const backup = await makeBackup();
    await alterStored(backup.id, (archive) => {
      const at = archive.lastIndexOf('"quire_version"');
      const edited = Buffer.from(archive);
      edited[at + 1] = 'Q'.charCodeAt(0); // the same size, one byte different
      return edited;
    });
    await refusedRestore(backup.id, /does not match its signature/);
  });

  it('answers 400 for an archive whose signature was taken away or replaced, or that was cut short', async () => {
    const backup = await makeBackup();
    const original = (await download(backup.id)).rawPayload;
    const parts = await unpack(original);
    const unsigned = new Map(parts);
    unsigned.delete('manifest.sig');
    await alterStored(backup.id, () => pack([...unsigned]));
    await refusedRestore(backup.id, /not signed/);

    const other = archiveKey({ secretKey: createHash('sha256').update('another installation').digest() });
    await alterStored(backup.id, () => repack(parts, () => {}, other));
    await refusedRestore(backup.id, /another Quire installation/);

    await alterStored(backup.id, () => original.subarray(0, original.length - 4096));
    await refusedRestore(backup.id, /not a complete backup archive|not signed|no manifest/);

    // A part made larger, the manifest left as it was signed: the layout no longer fits it.
    const grown = new Map(parts);
    grown.set(
      'database/groups.tsv',
      Buffer.concat([parts.get('database/groups.tsv')!, Buffer.alloc(600, 10)]),
    );
    await alterStored(backup.id, () => pack([...grown]));
    await refusedRestore(backup.id, /parts are not the ones its manifest describes/);

    // Put back as it was made, it restores.
    await alterStored(backup.id, () => original);
    expect((await restore(t, admin, backup.id)).statusCode).toBe(200);
    await t.app.jobs.runDue();
    expect((await t.db.backup.findUniqueOrThrow({ where: { id: backup.id } })).status).toBe('restored');
  });
});

describe('schedule, keep-last, delete', () => {
  it('refuses a bad schedule naming the field', async () => {
    const cases: Array<[object, string]> = [
      [{ enabled: true, frequency: 'custom', cron: 'every day', keep_last: 3 }, 'body.cron'],
      [{ enabled: true, frequency: 'custom', keep_last: 3 }, 'body.cron'],
      [{ enabled: true, frequency: 'daily', time: '25:00', keep_last: 3 }, 'body.time'],
      [{ enabled: true, frequency: 'weekly', day_of_week: 9, keep_last: 3 }, 'body.day_of_week'],
      [{ enabled: true, frequency: 'daily', keep_last: 0 }, 'body.keep_last'],
      [{ enabled: 'yes', frequency: 'daily', keep_last: 1 }, 'body.enabled'],
    ];
    for (const [body, path] of cases) {
      const res = await callAs(t, admin, { method: 'POST', url: '/api/schedule_backup', payload: body });
      expect(`${path} ${res.statusCode}`).toBe(`${path} 400`);
      expect(res.json().errors[0].path).toBe(path);
    }
    expect(await t.db.backupSchedule.count()).toBe(0);
  });

  it("says what is wrong with a cron expression in a sentence, never in the parser's words", async () => {
    const ask = async (cron: string) =>
      (
        await callAs(t, admin, {
          method: 'POST',
          url: '/api/schedule_backup',
          payload: { enabled: true, frequency: 'custom', cron, keep_last: 3 },
        })
      ).json().errors;
    expect(await ask('0 2 * *')).toEqual([
      {
        path: 'body.cron',
        message: 'Give five fields (minute hour day month weekday), or six with the second first',
      },
    ]);
    expect(await ask('0 24 * * *')).toEqual([{ path: 'body.cron', message: 'Hour must be 0-23' }]);
    expect(await ask('0 2 31 2 *')).toEqual([{ path: 'body.cron', message: CRON_NEVER_DUE }]);
    expect(await t.db.backupSchedule.count()).toBe(0);
  });

  it('fires on the job runner’s schedule from the stored cron and keeps the last N', async () => {
    const res = await callAs(t, admin, {
      method: 'POST',
      url: '/api/schedule_backup',
      payload: { enabled: true, frequency: 'weekly', time: '03:30', day_of_week: 1, keep_last: 1 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      enabled: true,
      frequency: 'weekly',
      time: '03:30',
      day_of_week: 1,
      cron: '30 3 * * 1',
      keep_last: 1,
    });
    const daily = await callAs(t, admin, {
      method: 'POST',
      url: '/api/schedule_backup',
      payload: { enabled: true, frequency: 'custom', cron: '*/5 * * * *', keep_last: 1 },
    });
    expect(daily.json().data.frequency).toBe('custom');
    const scheduled = () => t.db.backup.findMany({ where: { kind: 'scheduled' } });
    await t.app.jobs.tickSchedules(); // first look: starts from the next due time
    const backupRuns = () => t.db.job.count({ where: { kind: 'backup.run' } });
    const runsBefore = await backupRuns();
    for (let i = 0; i < 2; i++) {
      clock = new Date(clock.getTime() + 5 * 60_000);
      await t.app.jobs.tickSchedules(); // other schedules (the workflow clock) may fire too
      expect(await backupRuns()).toBe(runsBefore + i + 1);
      await t.app.jobs.runDue();
    }
    const kept = await scheduled();
    expect(kept).toHaveLength(1);
    expect(kept[0]!.status).toBe('succeeded');
    expect(await t.db.auditEvent.count({ where: { action: 'backup.pruned' } })).toBe(1);
    // Off: nothing fires.
    await callAs(t, admin, {
      method: 'POST',
      url: '/api/schedule_backup',
      payload: { enabled: false, frequency: 'daily', keep_last: 1 },
    });
    clock = new Date(clock.getTime() + 10 * 60_000);
    await t.app.jobs.tickSchedules();
    await t.app.jobs.runDue();
    expect(await scheduled()).toHaveLength(1);
  });

  it('delete_backup_file removes the archive and keeps the record; delete_backup removes both', async () => {
    const backup = await makeBackup();
    expect((await callAs(t, admin, { method: 'POST', url: '/api/delete_backup_file/abc' })).statusCode).toBe(
      400,
    );
    expect(
      (await callAs(t, admin, { method: 'POST', url: '/api/delete_backup_file/999999' })).statusCode,
    ).toBe(404);
    expect(
      (await callAs(t, admin, { method: 'POST', url: `/api/delete_backup_file/${backup.id}` })).statusCode,
    ).toBe(200);
    const row = (await list()).json().data.items.find((b: { id: number }) => b.id === backup.id);
    expect(row.has_file).toBe(false);
    expect((await files()).json().data.map((f: { id: number }) => f.id)).not.toContain(backup.id);
    expect((await download(backup.id)).statusCode).toBe(409);
    expect(
      (await callAs(t, admin, { method: 'POST', url: `/api/delete_backup/${backup.id}` })).statusCode,
    ).toBe(200);
    expect(await t.db.backup.findUnique({ where: { id: backup.id } })).toBeNull();
    expect(
      (await callAs(t, admin, { method: 'POST', url: `/api/delete_backup/${backup.id}` })).statusCode,
    ).toBe(404);
  });
});
