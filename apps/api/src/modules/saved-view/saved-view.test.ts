import { SAVED_VIEWS_MAX } from '@quire/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { errorPaths } from '../../../test/errors.js';
import { person, seededApp } from '../../../test/seed.js';

// Saved views: a person's own searches and filters by name, pinned to the dashboard, in their
// order. Only the owner sees or changes one (404 otherwise, audited); each write is audited.

let t: TestContext;
const u = { alice: 0, bob: 0 };
const tok = { alice: '', bob: '' };

beforeAll(async () => {
  const world = await seededApp({ users: { alice: {}, bob: {} } });
  t = world.t;
  const { alice, bob } = world.users;
  Object.assign(u, { alice: alice.id, bob: bob.id });
  Object.assign(tok, { alice: alice.token, bob: bob.token });
});
afterAll(() => t.close());

const call = (token: string | null, opts: InjectOptions) => callAs(t, token, opts);
const create = (token: string, payload: unknown) =>
  call(token, { method: 'POST', url: '/api/saved-views', payload: payload as object });
const patch = (token: string | null, id: number, payload: unknown) =>
  call(token, { method: 'PATCH', url: `/api/saved-views/${id}`, payload: payload as object });
const list = async (token: string) =>
  (await call(token, { method: 'GET', url: '/api/saved-views' })).json().data.items as Array<{
    id: number;
    name: string;
    pinned: boolean;
    position: number;
  }>;
const names = async (token: string) => (await list(token)).map((v) => v.name);
const auditCount = (action: string) => t.db.auditEvent.count({ where: { action } });
const rows = () => t.db.savedView.count();

describe('saved views', () => {
  it('saves a search with filters by name, lists it back exactly, and audits it', async () => {
    const before = await auditCount('saved_view.created');
    const query = {
      search: 'invoice',
      category_id: 4,
      startDate: '2026-01-01',
      locked: false,
      fields: [{ field_id: 12, keys: [3, 4] }],
    };
    const res = await create(tok.alice, { name: 'Open invoices', query, pinned: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'View "Open invoices" saved',
      data: {
        name: 'Open invoices',
        pinned: true,
        position: 0,
        query: { ...query, include_subcategories: true },
      },
    });
    const [view] = await list(tok.alice);
    expect(view).toMatchObject({ name: 'Open invoices', pinned: true, query: { search: 'invoice' } });
    const event = await t.db.auditEvent.findFirst({
      where: { action: 'saved_view.created' },
      orderBy: { id: 'desc' },
    });
    expect(event).toMatchObject({ userId: u.alice, type: 'saved-view', targetId: String(view?.id) });
    expect(await auditCount('saved_view.created')).toBe(before + 1);
    // Bob sees none of Alice's.
    expect(await list(tok.bob)).toEqual([]);
  });

  it('refuses bad input with 400 naming the field, and stores nothing', async () => {
    const before = await rows();
    for (const [payload, path] of [
      [{ name: '', query: { search: 'x' } }, 'body.name'],
      [{ name: 'x'.repeat(101), query: { search: 'x' } }, 'body.name'],
      [{ name: 'Line\nbreak', query: { search: 'x' } }, 'body.name'],
      [{ name: 'Nothing', query: {} }, 'body.query'],
      [{ name: 'Nothing', query: { include_subcategories: false } }, 'body.query'],
      [
        { name: 'Bad dates', query: { startDate: '2026-02-01', endDate: '2026-01-01' } },
        'body.query.endDate',
      ],
      [{ name: 'No query' }, 'body.query'],
    ] as const) {
      const res = await create(tok.alice, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(errorPaths(res)).toContain(path);
    }
    expect(await rows()).toBe(before);
  });

  it('keeps names unique per person (400 naming body.name, any case); others may reuse them', async () => {
    await create(tok.alice, { name: 'Contracts', query: { search: 'contract' } });
    const before = await rows();
    const again = await create(tok.alice, { name: 'contracts', query: { search: 'other' } });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors).toEqual([
      { path: 'body.name', message: 'You already have a view with this name' },
    ]);
    expect(await rows()).toBe(before);
    expect((await create(tok.bob, { name: 'Contracts', query: { search: 'contract' } })).statusCode).toBe(
      200,
    );
    const [open] = await list(tok.alice);
    const rename = await patch(tok.alice, open?.id ?? 0, { name: 'CONTRACTS' });
    expect(rename.statusCode).toBe(400);
    expect(rename.json().errors[0].path).toBe('body.name');
  });

  it('renames, pins and unpins, and moves a view; the others keep their order; each change audited', async () => {
    await create(tok.alice, { name: 'Third', query: { owner_id: 3 } });
    expect(await names(tok.alice)).toEqual(['Open invoices', 'Contracts', 'Third']);
    const third = (await list(tok.alice)).find((v) => v.name === 'Third');
    const before = await auditCount('saved_view.updated');
    const moved = await patch(tok.alice, third?.id ?? 0, { position: 0, pinned: true, name: 'First now' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ name: 'First now', pinned: true, position: 0 });
    expect((await list(tok.alice)).map((v) => [v.name, v.position])).toEqual([
      ['First now', 0],
      ['Open invoices', 1],
      ['Contracts', 2],
    ]);
    const event = await t.db.auditEvent.findFirst({
      where: { action: 'saved_view.updated' },
      orderBy: { id: 'desc' },
    });
    expect(event?.message).toBe(
      'Saved view "First now": renamed "Third" to "First now", pinned it to the dashboard, moved it to place 1',
    );
    // Past the end means last.
    await patch(tok.alice, third?.id ?? 0, { position: 99, pinned: false });
    expect(await names(tok.alice)).toEqual(['Open invoices', 'Contracts', 'First now']);
    expect((await list(tok.alice)).at(-1)?.pinned).toBe(false);
    expect(await auditCount('saved_view.updated')).toBe(before + 2);
    const empty = await patch(tok.alice, third?.id ?? 0, {});
    expect(empty.statusCode).toBe(400);
    expect((await patch(tok.alice, third?.id ?? 0, { position: -1 })).json().errors[0].path).toBe(
      'body.position',
    );
  });

  it('gives a view another search; a query with nothing to search is refused at body.query', async () => {
    const contracts = (await list(tok.alice)).find((v) => v.name === 'Contracts');
    const id = contracts?.id ?? 0;
    const res = await patch(tok.alice, id, { query: { search: 'signed contract', owner_id: 7 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.query).toEqual({
      search: 'signed contract',
      owner_id: 7,
      include_subcategories: true,
      fields: [],
    });
    const event = await t.db.auditEvent.findFirst({
      where: { action: 'saved_view.updated', targetId: String(id) },
      orderBy: { id: 'desc' },
    });
    expect(event?.message).toBe('Saved view "Contracts": changed its search');
    const bad = await patch(tok.alice, id, { query: { fields: [] } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].path).toBe('body.query');
    const stored = await t.db.savedView.findUniqueOrThrow({ where: { id } });
    expect(stored.query).toMatchObject({ search: 'signed contract' });
  });

  it("answers 404 for another person's view (audited), and changes nothing of it", async () => {
    const [view] = await list(tok.alice);
    const id = view?.id ?? 0;
    const before = await auditCount('access.not_found');
    const rename = await patch(tok.bob, id, { name: 'Mine now' });
    expect(rename.statusCode).toBe(404);
    expect(rename.json().message).toBe('Saved view not found');
    const del = await call(tok.bob, { method: 'DELETE', url: `/api/saved-views/${id}` });
    expect(del.statusCode).toBe(404);
    expect(await auditCount('access.not_found')).toBe(before + 2);
    expect((await list(tok.alice))[0]?.name).toBe(view?.name);
    expect((await patch(null, id, { name: 'x' })).statusCode).toBe(401);
    expect((await call(null, { method: 'GET', url: '/api/saved-views' })).statusCode).toBe(401);
    expect((await patch(tok.alice, 999999, { name: 'x' })).statusCode).toBe(404);
  });

  it('deletes a view; the ones after it move up; audited', async () => {
    const [first, second] = await list(tok.alice);
    const before = await auditCount('saved_view.deleted');
    const res = await call(tok.alice, { method: 'DELETE', url: `/api/saved-views/${first?.id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'View deleted', data: { id: first?.id } });
    const after = await list(tok.alice);
    expect(after[0]).toMatchObject({ id: second?.id, position: 0 });
    expect(after.map((v) => v.position)).toEqual([0, 1]);
    expect(await auditCount('saved_view.deleted')).toBe(before + 1);
    expect(
      (await call(tok.alice, { method: 'DELETE', url: `/api/saved-views/${first?.id}` })).statusCode,
    ).toBe(404);
  });

  it(`keeps at most ${SAVED_VIEWS_MAX} views per person`, async () => {
    const carol = await person(t);
    const { token } = carol;
    await t.db.savedView.createMany({
      data: Array.from({ length: SAVED_VIEWS_MAX }, (_, i) => ({
        userId: carol.id,
        name: `View ${i}`,
        query: { search: `word${i}` },
        position: i,
      })),
    });
    const res = await create(token, { name: 'One more', query: { search: 'more' } });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain(`You have ${SAVED_VIEWS_MAX} saved views`);
    expect(await t.db.savedView.count({ where: { userId: carol.id } })).toBe(SAVED_VIEWS_MAX);
  });
});
