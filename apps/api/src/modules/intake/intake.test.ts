import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs, expectAccess, FILE_CONTROL_CALLERS, readCaseOf, writeCase } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { addCategoryFields, createMetadataField } from '../../../test/factories.js';
import { auditedInTurn } from '../../../test/in-turn.js';
import { seed, seededApp } from '../../../test/seed.js';
import { folderKey } from './folder-watch.service.js';
import { accountOf, imapSettings } from './imap/imap.settings.js';
import { findSource } from './intake.repository.js';
import { pollSource } from './poll.service.js';
import { takeArrival } from './take-arrival.service.js';

// The intake calls: sources (folders in INTAKE_FOLDERS only; IMAP passwords kept encrypted and
// never shown), rules (ordered, reordered, tried without effect in a dry run), arrivals (listed
// with the rule that filed each; a failed one taken again), and the filing of what arrives by
// the first matching rule. File Control writers manage; the Auditor reads; others are refused.

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
/** A program (ELF header): a type intake refuses. */
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120)]);
let t: TestContext;
let root: string;
let admin: string;
let adminId: number;
let inbox: { id: number; name: string };
let invoices: { id: number; name: string };

const call = (opts: InjectOptions, token: string | null = admin) => callAs(t, token, opts);
const folderBody = (o: Record<string, unknown> = {}) => ({
  kind: 'folder',
  name: `Scanner ${Math.random().toString(36).slice(2, 8)}`,
  category_id: inbox.id,
  owner_id: adminId,
  settings: { path: path.join(root, 'scanner'), subfolders: false },
  ...o,
});
const findSourceOrThrow = async (id: number) => {
  const source = await findSource(t.db, id);
  if (!source) throw new Error(`No intake source ${id}`);
  return source;
};
const auditCount = (action: string) => t.db.auditEvent.count({ where: { action } });
/** Runs the due jobs until none is left; filing that waits for text is looked at again at once. */
const runJobs = async () => {
  for (let i = 0; i < 20; i++) {
    await t.app.jobs.runDue();
    const waiting = await t.db.job.updateMany({
      where: { kind: 'intake.file', status: 'queued' },
      data: { runAt: new Date() },
    });
    if (
      !waiting.count &&
      !(await t.db.job.count({ where: { status: 'queued', runAt: { lte: new Date() } } }))
    )
      return;
  }
};

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'quire-intake-'));
  const world = await seededApp(
    {
      users: { admin: { accessType: 'COMPANY ADMIN' } },
      categories: { inbox: { name: 'Inbox' }, invoices: { name: 'Invoices' } },
    },
    { INTAKE_FOLDERS: root },
  );
  ({
    t,
    categories: { inbox, invoices },
  } = world);
  ({ id: adminId, token: admin } = world.users.admin);
}, 60_000);
afterAll(async () => {
  await t.close();
  await rm(root, { recursive: true, force: true });
});

describe('sources', () => {
  it('adds a folder source (creating the folder), lists it with its state and counts, changes and removes it', async () => {
    const before = await auditCount('intake.source_created');
    const res = await call({
      method: 'POST',
      url: '/api/intake/sources',
      payload: folderBody({ name: 'Front desk' }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const source = res.json().data;
    expect(source).toMatchObject({
      kind: 'folder',
      name: 'Front desk',
      category: inbox,
      file_as: 'indexed',
      state: 'idle',
      taken_count: 0,
      failed_count: 0,
      settings: { path: path.join(root, 'scanner'), subfolders: false },
    });
    expect(await readdir(root)).toContain('scanner');
    expect(await auditCount('intake.source_created')).toBe(before + 1);
    const list = await call({ method: 'GET', url: '/api/intake/sources' });
    expect(list.json().data.items.map((s: { name: string }) => s.name)).toContain('Front desk');
    const changed = await call({
      method: 'PUT',
      url: `/api/intake/sources/${source.id}`,
      payload: folderBody({ name: 'Front desk', file_as: 'unindexed', enabled: false }),
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toMatchObject({ file_as: 'unindexed', enabled: false });
    const removed = await call({ method: 'DELETE', url: `/api/intake/sources/${source.id}` });
    expect(removed.statusCode).toBe(200);
    expect(await t.db.intakeSource.count({ where: { id: source.id } })).toBe(0);
    expect(await auditCount('intake.source_deleted')).toBeGreaterThan(0);
  });

  it('refuses a folder outside INTAKE_FOLDERS, a missing category or owner, a name taken (400 naming the field, nothing stored)', async () => {
    await call({ method: 'POST', url: '/api/intake/sources', payload: folderBody({ name: 'Taken' }) });
    const count = await t.db.intakeSource.count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ settings: { path: '/etc', subfolders: false } }, 'body.settings.path'],
      [{ settings: { path: path.join(root, '..', 'elsewhere'), subfolders: false } }, 'body.settings.path'],
      [{ settings: { path: 'relative/path' } }, 'body.settings.path'],
      [{ category_id: 999999 }, 'body.category_id'],
      [{ owner_id: 999999 }, 'body.owner_id'],
      [{ name: 'taken' }, 'body.name'],
      [{ name: '' }, 'body.name'],
      [{ kind: 'ftp' }, 'body.kind'],
    ];
    for (const [o, field] of cases) {
      const res = await call({ method: 'POST', url: '/api/intake/sources', payload: folderBody(o) });
      expect(res.statusCode, JSON.stringify(o)).toBe(400);
      expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(field);
    }
    expect(await t.db.intakeSource.count()).toBe(count);
  });

  it('keeps an IMAP password encrypted, never shows or audits it, and keeps it when omitted', async () => {
    const body = {
      kind: 'imap',
      name: 'Invoices inbox',
      category_id: invoices.id,
      owner_id: adminId,
      settings: { host: 'imap.example.com', user: 'scans', password: 'hunter2-secret' },
    };
    const res = await call({ method: 'POST', url: '/api/intake/sources', payload: body });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain('hunter2');
    expect(res.json().data.settings).toMatchObject({
      host: 'imap.example.com',
      port: 993,
      has_password: true,
    });
    const row = await t.db.intakeSource.findUniqueOrThrow({ where: { id: res.json().data.id } });
    expect(JSON.stringify(row.settings)).not.toContain('hunter2');
    const events = await t.db.auditEvent.findMany({
      where: { type: 'intake' },
      select: { message: true, details: true },
    });
    expect(JSON.stringify(events)).not.toContain('hunter2');
    const { password: _omitted, ...settings } = body.settings;
    const kept = await call({
      method: 'PUT',
      url: `/api/intake/sources/${row.id}`,
      payload: { ...body, settings: { ...settings, after_take: 'move' } },
    });
    expect(kept.statusCode).toBe(400);
    expect(kept.json().errors[0].path).toBe('body.settings.move_to');
    const ok = await call({
      method: 'PUT',
      url: `/api/intake/sources/${row.id}`,
      payload: { ...body, settings },
    });
    expect(ok.json().data.settings.has_password).toBe(true);
    await call({ method: 'DELETE', url: `/api/intake/sources/${row.id}` });
  });
});

describe('rules, filing and the dry run', () => {
  let sourceId: number;
  let fieldId: number;
  let tagId: number;

  beforeAll(async () => {
    const res = await call({
      method: 'POST',
      url: '/api/intake/sources',
      payload: folderBody({
        name: 'Rules source',
        settings: { path: path.join(root, 'rules'), subfolders: false },
      }),
    });
    sourceId = res.json().data.id;
    const field = await createMetadataField(t.db, { name: 'Supplier' });
    fieldId = field.id;
    await addCategoryFields(t.db, invoices.id, [field.id]);
    tagId = (await t.db.relatedTag.create({ data: { categoryId: invoices.id, name: 'Paid' } })).id;
  });

  const take = (name: string, content: Buffer, key = name, sender?: string) =>
    takeArrival(t.app.deps, {
      sourceId,
      externalKey: key,
      fileName: name,
      stream: Readable.from([content]),
      ...(sender ? { sender } : {}),
    });

  it('adds rules last, lists them in order, reorders them (every rule once) and refuses bad ones', async () => {
    const a = await call({
      method: 'POST',
      url: '/api/intake/rules',
      payload: {
        name: 'Invoices by name',
        name_glob: 'invoice-*.pdf',
        category_id: invoices.id,
        values: [{ field_id: fieldId, value: 'ACME' }],
        tag_ids: [tagId],
      },
    });
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json().data).toMatchObject({
      position: 1,
      summary: 'When file name "invoice-*.pdf": file into "Invoices", set 1 value, tag 1',
    });
    const b = await call({
      method: 'POST',
      url: '/api/intake/rules',
      payload: { name: 'Words', text_words: ['quarterly report'], category_id: invoices.id },
    });
    expect(b.json().data.position).toBe(2);
    const ids = [a.json().data.id, b.json().data.id];
    const bad: Array<[object, string]> = [
      [{ name: 'x', tag_ids: [tagId] }, 'body.tag_ids'],
      [{ name: 'x', category_id: 999999 }, 'body.category_id'],
      [{ name: 'x', source_ids: [999999] }, 'body.source_ids.0'],
      [{ name: 'x', workflow_id: 999999 }, 'body.workflow_id'],
      [{ name: 'x', name_glob: 'a/b' }, 'body.name_glob'],
      [{ name: 'x', category_id: inbox.id, tag_ids: [tagId] }, 'body.tag_ids.0'],
    ];
    const count = await t.db.intakeRule.count();
    for (const [payload, field] of bad) {
      const res = await call({ method: 'POST', url: '/api/intake/rules', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(field);
    }
    expect(await t.db.intakeRule.count()).toBe(count);
    const half = await call({ method: 'PUT', url: '/api/intake/rules-order', payload: { ids: [ids[1]] } });
    expect(half.statusCode).toBe(400);
    const swapped = await call({
      method: 'PUT',
      url: '/api/intake/rules-order',
      payload: { ids: [ids[1], ids[0]] },
    });
    expect(swapped.statusCode, swapped.body).toBe(200);
    expect(swapped.json().data.items.map((r: { id: number }) => r.id)).toEqual([ids[1], ids[0]]);
    await call({ method: 'PUT', url: '/api/intake/rules-order', payload: { ids } });
    expect(await auditCount('intake.rules_reordered')).toBe(2);
  });

  it('files an arrival by the first matching rule: moved, indexed with its values and tags, audited', async () => {
    const out = await take('invoice-0042.pdf', PDF);
    expect(out.outcome).toBe('taken');
    if (out.outcome !== 'taken') return;
    await runJobs();
    const file = await t.db.file.findUniqueOrThrow({
      where: { id: out.fileId },
      include: { values: true, tags: true },
    });
    expect(file).toMatchObject({ categoryId: invoices.id, indexStatus: 'indexed' });
    expect(file.values).toEqual([expect.objectContaining({ fieldId, valueText: 'ACME' })]);
    expect(file.tags.map((x) => x.tagId)).toEqual([tagId]);
    const arrivals = await call({ method: 'GET', url: `/api/intake/arrivals?source_id=${sourceId}` });
    expect(arrivals.json().data.items[0]).toMatchObject({
      file_name: 'invoice-0042.pdf',
      status: 'taken',
      rule: { name: 'Invoices by name' },
      ruled: true,
      reason: null,
      file: { id: out.fileId },
      source: { id: sourceId, kind: 'folder' },
    });
    const filed = await t.db.auditEvent.findFirstOrThrow({
      where: { action: 'intake.arrival_filed', targetId: String(out.fileId) },
    });
    expect(filed.message).toBe('Filed "invoice-0042.pdf" by rule "Invoices by name"');
  });

  it('waits for the text when a rule reads words, then files by them; with no rule, as the source says', async () => {
    const report = await take('notes.txt', Buffer.from('The Quarterly  Report for the board\n'));
    const other = await take('other.txt', Buffer.from('Nothing to see here\n'));
    if (report.outcome !== 'taken' || other.outcome !== 'taken') throw new Error('not taken');
    await runJobs();
    const filed = await t.db.file.findUniqueOrThrow({ where: { id: report.fileId } });
    expect(filed).toMatchObject({ categoryId: invoices.id, indexStatus: 'indexed' });
    const plain = await t.db.file.findUniqueOrThrow({ where: { id: other.fileId } });
    expect(plain).toMatchObject({ categoryId: inbox.id, indexStatus: 'indexed' });
    const arrival = await t.db.intakeArrival.findUniqueOrThrow({ where: { id: other.arrivalId } });
    expect(arrival).toMatchObject({ ruleId: null, ruleName: null });
    expect(arrival.ruledAt).not.toBeNull();
  });

  it('dry run: what the rules would do to the last arrivals, changing nothing', async () => {
    const jobs = await t.db.job.count();
    const res = await call({ method: 'GET', url: '/api/intake/dry-run' });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().data.items as Array<{
      arrival: { file_name: string };
      rule: { name: string } | null;
    }>;
    const byName = new Map(rows.map((r) => [r.arrival.file_name, r.rule?.name ?? null]));
    expect(byName.get('invoice-0042.pdf')).toBe('Invoices by name');
    expect(byName.get('notes.txt')).toBe('Words');
    expect(byName.get('other.txt')).toBeNull();
    const one = await call({ method: 'GET', url: `/api/intake/dry-run?rule_id=${999999}` });
    expect(one.statusCode).toBe(404);
    expect(await t.db.job.count()).toBe(jobs);
  });

  it('a rule whose action is refused still files what it can, and says why on the arrival', async () => {
    const { strict } = (
      await seed(t, {
        fields: { due: { name: 'Due', required: true } },
        categories: { strict: { name: 'Strict', fields: ['due'] } },
      })
    ).categories;
    const rule = await call({
      method: 'POST',
      url: '/api/intake/rules',
      payload: { name: 'Strict', name_glob: 'strict*', category_id: strict.id },
    });
    await call({
      method: 'PUT',
      url: '/api/intake/rules-order',
      payload: { ids: [rule.json().data.id] },
    }).then(async (r) => {
      // Every rule must be named: the call says so, and nothing moves.
      expect(r.statusCode).toBe(400);
    });
    const out = await take('strict.pdf', PDF, 'strict-key');
    if (out.outcome !== 'taken') throw new Error('not taken');
    await runJobs();
    const file = await t.db.file.findUniqueOrThrow({ where: { id: out.fileId } });
    expect(file).toMatchObject({ categoryId: strict.id, indexStatus: 'unindexed' });
    const arrival = await t.db.intakeArrival.findUniqueOrThrow({ where: { id: out.arrivalId } });
    expect(arrival.ruleName).toBe('Strict');
    expect(arrival.reason).toMatch(/^Left unindexed: /);
    await call({ method: 'DELETE', url: `/api/intake/rules/${rule.json().data.id}` });
  });
});

describe('arrivals', () => {
  it('lists arrivals by page and status, and takes a failed folder file again', async () => {
    const folder = path.join(root, 'retry');
    const created = await call({
      method: 'POST',
      url: '/api/intake/sources',
      payload: folderBody({ name: 'Retry source', settings: { path: folder, subfolders: false } }),
    });
    const source = await findSourceOrThrow(created.json().data.id);
    await writeFile(path.join(folder, 'run.sh'), ELF);
    await pollSource(t.app.deps, source);
    await pollSource(t.app.deps, source);
    expect(await readdir(path.join(folder, 'failed'))).toEqual(['run.sh', 'run.sh.reason.txt']);
    const failed = await call({
      method: 'GET',
      url: `/api/intake/arrivals?status=failed&source_id=${source.id}`,
    });
    const item = failed.json().data.items[0];
    expect(item).toMatchObject({ status: 'failed', file_name: 'run.sh', file: null });
    const page = await call({ method: 'GET', url: '/api/intake/arrivals?quantity=2&page=1' });
    expect(page.json().data).toMatchObject({ quantity: 2, page: 1 });
    expect(page.json().data.items).toHaveLength(2);
    const badPage = await call({ method: 'GET', url: '/api/intake/arrivals?quantity=0' });
    expect(badPage.statusCode).toBe(400);

    const taken = (await t.db.intakeArrival.findFirstOrThrow({ where: { status: 'taken' } })).id;
    expect((await call({ method: 'POST', url: `/api/intake/arrivals/${taken}/retry` })).statusCode).toBe(409);
    const retried = await call({ method: 'POST', url: `/api/intake/arrivals/${item.id}/retry` });
    expect(retried.statusCode, retried.body).toBe(200);
    expect((await readdir(folder)).sort()).toEqual(['failed', 'run.sh']);
    expect(await readdir(path.join(folder, 'failed'))).toEqual([]);
    expect(await t.db.intakeArrival.count({ where: { id: item.id } })).toBe(0);
    expect(await auditCount('intake.arrival_retried')).toBe(1);
    // Taken again (and refused again, as a program): a new arrival, the file back in failed/.
    await pollSource(t.app.deps, source);
    await pollSource(t.app.deps, source);
    expect(await t.db.intakeArrival.count({ where: { sourceId: source.id, status: 'failed' } })).toBe(1);
    // Gone from failed/: the retry is refused and the arrival kept.
    const again = await t.db.intakeArrival.findFirstOrThrow({ where: { sourceId: source.id } });
    await rm(path.join(folder, 'failed', 'run.sh'));
    const gone = await call({ method: 'POST', url: `/api/intake/arrivals/${again.id}/retry` });
    expect(gone.statusCode).toBe(409);
    expect(gone.json().message).toContain('is no longer in the folder');
    expect(await t.db.intakeArrival.count({ where: { id: again.id } })).toBe(1);
  });
});

describe('who may', () => {
  it.each(FILE_CONTROL_CALLERS)('%s', async (...caller) => {
    const source = await call({ method: 'POST', url: '/api/intake/sources', payload: folderBody() });
    const rule = await call({ method: 'POST', url: '/api/intake/rules', payload: { name: 'Any' } });
    const sourceId = source.json().data.id;
    const ruleId = rule.json().data.id;
    // A failed file waiting in failed/, so a retry that is let through succeeds.
    const name = `x${Math.random().toString(36).slice(2, 8)}.bin`;
    const inFailed = path.join(root, 'scanner', 'failed', name);
    await mkdir(path.dirname(inFailed), { recursive: true });
    await writeFile(inFailed, ELF);
    const s = await stat(inFailed);
    const failed = await t.db.intakeArrival.create({
      data: {
        sourceId,
        externalKey: folderKey({ rel: name, size: s.size, mtimeMs: Math.trunc(s.mtimeMs) }, 'sha'),
        status: 'failed',
        fileName: name,
        reason: 'r',
      },
    });
    const cases = [
      readCaseOf('list sources', () => ({ method: 'GET', url: '/api/intake/sources' })),
      writeCase('add source', () => ({ method: 'POST', url: '/api/intake/sources', payload: folderBody() })),
      writeCase('change source', () => ({
        method: 'PUT',
        url: `/api/intake/sources/${sourceId}`,
        payload: folderBody(),
      })),
      readCaseOf('list rules', () => ({ method: 'GET', url: '/api/intake/rules' })),
      writeCase('add rule', () => ({ method: 'POST', url: '/api/intake/rules', payload: { name: 'R' } })),
      writeCase('change rule', () => ({
        method: 'PUT',
        url: `/api/intake/rules/${ruleId}`,
        payload: { name: 'R2' },
      })),
      readCaseOf('dry run', () => ({ method: 'GET', url: '/api/intake/dry-run' })),
      readCaseOf('arrivals', () => ({ method: 'GET', url: '/api/intake/arrivals' })),
      writeCase('retry', () => ({ method: 'POST', url: `/api/intake/arrivals/${failed.id}/retry` })),
    ];
    const denied = await t.db.auditEvent.count({
      where: { action: { in: ['access.denied', 'access.unauthenticated'] } },
    });
    await expectAccess(t, caller, cases, async () => [
      await t.db.intakeSource.count(),
      await t.db.intakeRule.count(),
      await t.db.intakeArrival.count(),
      (await t.db.intakeRule.findUnique({ where: { id: ruleId } }))?.name,
    ]);
    if (caller[0] !== 'Company Admin' && caller[0] !== 'File Control Admin')
      expect(
        await t.db.auditEvent.count({
          where: { action: { in: ['access.denied', 'access.unauthenticated'] } },
        }),
      ).toBeGreaterThan(denied);
  });
});

describe('edits of one rule sent at once', () => {
  it('takes them one after the other, each audit starting where the last ended', async () => {
    const created = await call({
      method: 'POST',
      url: '/api/intake/rules',
      payload: { name: 'Raced', enabled: false, name_glob: 'raced-0.pdf', category_id: inbox.id },
    });
    expect(created.statusCode, created.body).toBe(200);
    const rule = created.json().data as { id: number; summary: string };
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map((i) =>
        call({
          method: 'PUT',
          url: `/api/intake/rules/${rule.id}`,
          payload: { name: 'Raced', enabled: false, name_glob: `raced-${i}.pdf`, category_id: inbox.id },
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
    const last = await auditedInTurn(t, {
      action: 'intake.rule_changed',
      targetId: rule.id,
      start: rule.summary,
    });
    const listed = (await call({ method: 'GET', url: '/api/intake/rules' })).json().data.items as Array<{
      id: number;
      summary: string;
    }>;
    expect(listed.find((r) => r.id === rule.id)?.summary).toBe(last);
    await call({ method: 'DELETE', url: `/api/intake/rules/${rule.id}` });
  });
});

describe('edits of one source sent at once', () => {
  it('takes them one after the other, each audit starting where the last ended', async () => {
    const settings = { path: path.join(root, 'raced'), subfolders: false };
    const body = (name: string) => folderBody({ name, enabled: false, settings });
    const created = await call({ method: 'POST', url: '/api/intake/sources', payload: body('Raced 0') });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as number;
    const put = (i: number) =>
      call({ method: 'PUT', url: `/api/intake/sources/${id}`, payload: body(`Raced ${i}`) });
    expect((await put(1)).statusCode).toBe(200);
    const first = await t.db.auditEvent.findFirstOrThrow({
      where: { action: 'intake.source_changed', targetId: String(id) },
    });
    const answers = await Promise.all([2, 3, 4, 5, 6, 7, 8, 9].map(put));
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
    const last = (await auditedInTurn(t, {
      action: 'intake.source_changed',
      targetId: id,
      start: (first.details as { before: unknown }).before,
    })) as { name: string };
    expect((await findSourceOrThrow(id)).name).toBe(last.name);
    await call({ method: 'DELETE', url: `/api/intake/sources/${id}` });
  });
});

describe('edits of one inbox sent at once, some setting its password', () => {
  it('keeps the password the last of them in turn set', async () => {
    const settings = { host: 'imap.example.com', user: 'scans' };
    // Even edits type a password of their own; odd ones leave it blank (keep the stored one).
    const body = (i: number) => ({
      kind: 'imap',
      name: `Raced inbox ${i}`,
      enabled: false,
      category_id: inbox.id,
      owner_id: adminId,
      settings: i % 2 === 0 ? { ...settings, password: `password-${i}` } : settings,
    });
    const created = await call({ method: 'POST', url: '/api/intake/sources', payload: body(0) });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as number;
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((i) =>
        call({ method: 'PUT', url: `/api/intake/sources/${id}`, payload: body(i) }),
      ),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(answers.map(() => 200));
    const events = await t.db.auditEvent.findMany({
      where: { action: 'intake.source_changed', targetId: String(id) },
      orderBy: { id: 'asc' },
    });
    const setters = events
      .map((e) => Number((e.details as { after: { name: string } }).after.name.split(' ').at(-1)))
      .filter((i) => i % 2 === 0);
    const row = await findSourceOrThrow(id);
    expect(accountOf(t.app.deps, imapSettings(row.settings)).password).toBe(
      `password-${setters.at(-1) ?? 0}`,
    );
    await call({ method: 'DELETE', url: `/api/intake/sources/${id}` });
  });
});
