import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.js';
import { seededApp } from '../../../test/seed.js';
import { takeArrival } from './take-arrival.service.js';

// The one way in for what a source takes: claimed once per external key (a retry or a second
// server takes nothing twice), uploaded like any upload, the arrival and its audit event
// naming the source committed with the file; refusals are failed arrivals with a reason.

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
let t: TestContext;
let sourceId: number;
let categoryId: number;
let ownerId: number;

const stream = (b: Buffer) => Readable.from([b]);

beforeAll(async () => {
  const world = await seededApp(
    {
      users: { owner: { accessType: 'File Control Admin', signIn: false } },
      categories: { inbox: { name: 'Inbox' } },
    },
    { MAX_UPLOAD_BYTES: '4096' },
  );
  t = world.t;
  ownerId = world.users.owner.id;
  categoryId = world.categories.inbox.id;
  sourceId = (
    await t.db.intakeSource.create({
      data: { kind: 'folder', name: 'Scanner', categoryId, ownerId, settings: { path: '/tmp/x' } },
    })
  ).id;
}, 60_000);
afterAll(() => t.close());

describe('takeArrival', () => {
  it('uploads the file as the owner into the category, with its arrival, audit event and filing job', async () => {
    const out = await takeArrival(t.app.deps, {
      sourceId,
      externalKey: 'a.pdf|1',
      fileName: 'a.pdf',
      stream: stream(PDF),
      sender: 'scanner@example.com',
    });
    expect(out.outcome).toBe('taken');
    if (out.outcome !== 'taken') return;
    const file = await t.db.file.findUniqueOrThrow({
      where: { id: out.fileId },
      include: { currentVersion: true },
    });
    expect(file).toMatchObject({ name: 'a.pdf', categoryId, ownerId, indexStatus: 'unindexed' });
    expect(file.currentVersion?.mimeType).toBe('application/pdf');
    const arrival = await t.db.intakeArrival.findUniqueOrThrow({ where: { id: out.arrivalId } });
    expect(arrival).toMatchObject({ status: 'taken', fileId: file.id, sender: 'scanner@example.com' });
    const event = await t.db.auditEvent.findFirstOrThrow({ where: { action: 'intake.arrival_taken' } });
    expect(event.message).toBe('Took "a.pdf" from folder "Scanner"');
    expect(event.details).toMatchObject({ source_id: sourceId, source_name: 'Scanner' });
    expect(await t.db.job.count({ where: { kind: 'intake.file' } })).toBe(1);
    expect((await t.db.intakeSource.findUniqueOrThrow({ where: { id: sourceId } })).takenCount).toBe(1);
  });

  it('takes nothing twice: the same key again, or many at once, is one file', async () => {
    const files = await t.db.file.count();
    const again = await takeArrival(t.app.deps, {
      sourceId,
      externalKey: 'a.pdf|1',
      fileName: 'a.pdf',
      stream: stream(PDF),
    });
    expect(again.outcome).toBe('duplicate');
    const keyed = (c: { sha256: string }) => `b.pdf|${c.sha256}`;
    const racing = await Promise.all(
      Array.from({ length: 5 }, () =>
        takeArrival(t.app.deps, { sourceId, externalKey: keyed, fileName: 'b.pdf', stream: stream(PDF) }),
      ),
    );
    expect(racing.filter((r) => r.outcome === 'taken')).toHaveLength(1);
    expect(racing.filter((r) => r.outcome === 'duplicate')).toHaveLength(4);
    expect(await t.db.file.count()).toBe(files + 1);
  });

  it('fails what it will not take, with the reason, and files nothing', async () => {
    const files = await t.db.file.count();
    const big = await takeArrival(t.app.deps, {
      sourceId,
      externalKey: 'big',
      fileName: 'big.pdf',
      stream: stream(Buffer.concat([PDF, Buffer.alloc(5000, 32)])),
    });
    expect(big).toMatchObject({
      outcome: 'failed',
      reason: expect.stringContaining('larger than the largest upload'),
    });
    const elf = await takeArrival(t.app.deps, {
      sourceId,
      externalKey: 'prog',
      fileName: 'invoice.pdf',
      stream: stream(Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(100)])),
    });
    expect(elf).toMatchObject({ outcome: 'failed', reason: expect.stringContaining('application/x-elf') });
    const empty = await takeArrival(t.app.deps, {
      sourceId,
      externalKey: 'empty',
      fileName: 'e.pdf',
      stream: stream(Buffer.alloc(0)),
    });
    expect(empty).toMatchObject({ outcome: 'failed', reason: 'The file is empty' });
    expect(await t.db.file.count()).toBe(files);
    expect(await t.db.intakeArrival.count({ where: { status: 'failed' } })).toBe(3);
    expect(await t.db.auditEvent.count({ where: { action: 'intake.arrival_failed' } })).toBe(3);
    // A failed key is claimed too: it is not tried again on the next look.
    const again = await takeArrival(t.app.deps, {
      sourceId,
      externalKey: 'big',
      fileName: 'big.pdf',
      stream: stream(PDF),
    });
    expect(again).toMatchObject({ outcome: 'duplicate', status: 'failed' });
  });
});
