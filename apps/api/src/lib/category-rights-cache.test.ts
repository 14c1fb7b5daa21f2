import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../test/access.js';
import { createTestApp, type TestContext } from '../../test/app.js';
import { createCategory } from '../../test/factories.js';
import { seed } from '../../test/seed.js';
import { readSeenSets } from './visible-sets.js';

// The category rights cache (migration 0020, decision 020): quire_category_rights(user)
// answers from a per-person row while the epoch it was computed at is current, and every
// statement that changes what rights derive from raises the epoch in its own transaction.
// Each case warms the cache first, so a change that failed to raise the epoch would be
// answered from the stale row, and compares with the tree walk itself.

let t: TestContext;
let world: Awaited<ReturnType<typeof seedWorld>>;

const seedWorld = () =>
  seed(t, {
    users: { ann: { signIn: false }, ben: { signIn: false }, cy: { signIn: false } },
    groups: { sales: ['ann'], legal: ['ben'] },
    categories: {
      top: { grants: { sales: ['upload'] } },
      child: { parent: 'top' },
      walled: { parent: 'top', inheritPermissions: false, grants: { ben: [] } },
      grandchild: { parent: 'child' },
      other: { grants: { cy: ['edit', 'share'] } },
    },
  });

type Row = Record<string, unknown>;
const sql = (text: string, values: unknown[] = []) => t.db.$queryRawUnsafe<Row[]>(text, ...values);
const cached = (userId: number) =>
  sql('SELECT * FROM quire_category_rights($1::int) ORDER BY category_id', [userId]);
const computed = (userId: number) =>
  sql('SELECT * FROM quire_category_rights_computed($1::int) ORDER BY category_id', [userId]);
const cacheRow = async (userId: number) =>
  (await sql('SELECT epoch, category_ids FROM category_rights_cache WHERE user_id = $1::int', [userId]))[0];
const epoch = async () => Number((await sql('SELECT epoch FROM category_rights_epoch'))[0]?.epoch);

beforeAll(async () => {
  t = await createTestApp();
  world = await seedWorld();
});
afterAll(() => t.close());

describe('the category rights cache', () => {
  it('answers what the tree walk answers after each kind of change', async () => {
    const { users, groups, categories: c } = world;
    const people = Object.values(users).map((u) => u.id);
    const categoryGroupId = Number(
      (
        await sql(`INSERT INTO category_groups (name, updated_at) VALUES ('Contracts', now()) RETURNING id`)
      )[0]?.id,
    );
    await sql(
      `INSERT INTO category_group_permissions (category_group_id, group_id, can_view, can_delete, updated_at)
       VALUES ($1, $2, true, true, now())`,
      [categoryGroupId, groups.legal.id],
    );
    const grant = (categoryId: number, userId: number) =>
      sql(
        `INSERT INTO category_permissions (category_id, user_id, can_view, updated_at) VALUES ($1, $2, true, now())`,
        [categoryId, userId],
      );
    const intoCategoryGroup = (categoryId: number) =>
      sql(`INSERT INTO category_group_members (category_group_id, category_id) VALUES ($1, $2)`, [
        categoryGroupId,
        categoryId,
      ]);
    // In order; each changes what someone may see or do.
    const changes: Array<[string, () => Promise<unknown>]> = [
      ['a grant to a person', () => grant(c.child.id, users.cy.id)],
      [
        "a grant's rights",
        () =>
          sql(`UPDATE category_permissions SET can_manage = true WHERE category_id = $1 AND user_id = $2`, [
            c.child.id,
            users.cy.id,
          ]),
      ],
      ['grants taken away', () => sql(`DELETE FROM category_permissions WHERE user_id = $1`, [users.cy.id])],
      [
        'a member added to a group',
        () =>
          sql(`INSERT INTO group_members (group_id, user_id) VALUES ($1, $2)`, [
            groups.sales.id,
            users.cy.id,
          ]),
      ],
      [
        'a member taken out of a group',
        () =>
          sql(`DELETE FROM group_members WHERE group_id = $1 AND user_id = $2`, [
            groups.sales.id,
            users.ann.id,
          ]),
      ],
      ['a category added to a granted category group', () => intoCategoryGroup(c.other.id)],
      [
        "a category group grant's rights",
        () => sql(`UPDATE category_group_permissions SET can_delete = false, can_upload = true`),
      ],
      ['another category added to it', () => intoCategoryGroup(c.walled.id)],
      ['a category group grant taken away', () => sql(`DELETE FROM category_group_permissions`)],
      [
        'a category moved under another',
        () => sql(`UPDATE categories SET parent_id = $1 WHERE id = $2`, [c.other.id, c.grandchild.id]),
      ],
      [
        'inheritance turned on',
        () => sql(`UPDATE categories SET inherit_permissions = true WHERE id = $1`, [c.walled.id]),
      ],
      [
        'a category deleted',
        () => sql(`UPDATE categories SET deleted_at = now() WHERE id = $1`, [c.child.id]),
      ],
      [
        'a category restored',
        () => sql(`UPDATE categories SET deleted_at = NULL WHERE id = $1`, [c.child.id]),
      ],
      ['a sub-category made', () => createCategory(t.db, { parentId: c.top.id })],
      ['a group deleted', () => sql(`DELETE FROM groups WHERE id = $1`, [groups.sales.id])],
      ['the grants emptied, as a restore does', () => sql('TRUNCATE category_permissions')],
    ];
    // The sets a list reads its categories from (readSeenSets): the cache's row while current.
    const seenIds = async (userId: number) => {
      const seen = await readSeenSets(t.db, { kind: 'grants', userId });
      return seen.kind === 'grants' ? seen.categoryIds : 'everything';
    };
    for (const [what, change] of changes) {
      const before = [];
      for (const id of people) before.push(await cached(id));
      await change();
      const after = [];
      for (const id of people) {
        const now = await computed(id);
        const viewed = now.map((r) => r.category_id);
        expect(await seenIds(id), `${what}: the sets read before the cache's row, user ${id}`).toEqual(
          viewed,
        );
        expect(await cached(id), `${what}, user ${id}`).toEqual(now);
        expect(await seenIds(id), `${what}: the sets read from the cache's row, user ${id}`).toEqual(viewed);
        after.push(now);
      }
      expect(after, `${what} changes someone's rights`).not.toEqual(before);
    }
  });

  it('keeps a row per person at the current epoch, and leaves it for changes that do not matter', async () => {
    const { users, categories: c } = world;
    await cached(users.ben.id);
    const before = await epoch();
    expect(await cacheRow(users.ben.id)).toMatchObject({ epoch: BigInt(before) });
    await sql(`UPDATE categories SET name = 'Renamed', position = 7 WHERE id = $1`, [c.top.id]);
    expect(await epoch()).toBe(before);
    await sql(`UPDATE categories SET inherit_permissions = inherit_permissions WHERE id = $1`, [c.top.id]);
    expect(await epoch()).toBe(before + 1);
  });

  describe('in transactions', () => {
    let client: pg.Client;
    let other: pg.Client;
    beforeAll(async () => {
      client = new pg.Client({ connectionString: t.databaseUrl });
      other = new pg.Client({ connectionString: t.databaseUrl });
      await Promise.all([client.connect(), other.connect()]);
    });
    afterAll(() => Promise.all([client.end(), other.end()]));
    const idsIn = async (c: pg.Client, userId: number) =>
      (
        await c.query<{ category_id: number }>(
          'SELECT category_id FROM quire_category_rights($1::int) ORDER BY 1',
          [userId],
        )
      ).rows.map((r) => r.category_id);

    it('sees its own change at once, and forgets it when rolled back', async () => {
      const { users, categories: c } = world;
      const before = await idsIn(client, users.ann.id);
      expect(before).not.toContain(c.other.id);
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO category_permissions (category_id, user_id, can_view, updated_at) VALUES ($1, $2, true, now())`,
        [c.other.id, users.ann.id],
      );
      expect(await idsIn(client, users.ann.id)).toContain(c.other.id);
      // The epoch moves at commit: until then this transaction computes, past the cache's row.
      const viewed = await client.query<{ ids: number[] }>(
        'SELECT quire_viewed_category_ids($1::int) AS ids',
        [users.ann.id],
      );
      expect(viewed.rows[0]?.ids).toContain(c.other.id);
      // Others read the rights of before the change until it commits.
      expect(await idsIn(other, users.ann.id)).toEqual(before);
      await client.query('ROLLBACK');
      expect(await idsIn(client, users.ann.id)).toEqual(before);
      expect(await idsIn(other, users.ann.id)).toEqual(before);
    });

    it('lets two granting transactions wait on each other for a row without deadlock', async () => {
      // Each grants, then one waits for a row the other holds. Were the epoch raised (and its
      // row locked) at the grant, the second grant would wait for the first transaction, which
      // waits for the second's row: PostgreSQL would kill one of them (CI saw it, 2026-11-27).
      const { users, categories: c } = world;
      const grantIn = (db: pg.Client, userId: number) =>
        db.query(
          `INSERT INTO category_permissions (category_id, user_id, can_view, updated_at) VALUES ($1, $2, true, now())`,
          [c.walled.id, userId],
        );
      const touch = (db: pg.Client) =>
        db.query('UPDATE users SET updated_at = now() WHERE id = $1', [users.cy.id]);
      const before = await epoch();
      await Promise.all([
        client.query(`SET statement_timeout = '10s'`),
        other.query(`SET statement_timeout = '10s'`),
      ]);
      try {
        await client.query('BEGIN');
        await grantIn(client, users.ann.id);
        await other.query('BEGIN');
        await touch(other);
        const otherGrants = grantIn(other, users.cy.id).then(() => other.query('COMMIT'));
        const clientWaits = touch(client); // waits for `other`'s row lock
        const settled = await Promise.allSettled([otherGrants, clientWaits]);
        const failed = settled.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
        if (failed.length) await Promise.all([client.query('ROLLBACK'), other.query('ROLLBACK')]);
        expect(failed).toEqual([]);
        await client.query('COMMIT');
      } finally {
        await Promise.all([client.query('RESET statement_timeout'), other.query('RESET statement_timeout')]);
      }
      expect(await epoch()).toBe(before + 2);
      for (const id of [users.ann.id, users.cy.id])
        expect(await idsIn(other, id), `user ${id}`).toEqual((await computed(id)).map((r) => r.category_id));
      await sql(`DELETE FROM category_permissions WHERE category_id = $1 AND user_id = ANY($2::int[])`, [
        c.walled.id,
        [users.ann.id, users.cy.id],
      ]);
    });

    it('reads in a read-only transaction without storing', async () => {
      const { users } = world;
      await sql('UPDATE category_rights_epoch SET epoch = epoch + 1');
      await client.query('BEGIN READ ONLY');
      expect(await idsIn(client, users.cy.id)).toEqual(
        (await computed(users.cy.id)).map((r) => r.category_id),
      );
      await client.query('COMMIT');
      expect(Number((await cacheRow(users.cy.id))?.epoch)).toBeLessThan(await epoch());
    });

    it('never waits for another transaction storing the same row', async () => {
      const { users } = world;
      await sql('UPDATE category_rights_epoch SET epoch = epoch + 1');
      await client.query('BEGIN');
      await idsIn(client, users.ben.id); // stores ben's row and holds it until the end
      await other.query(`SET statement_timeout = '3s'`);
      try {
        expect(await idsIn(other, users.ben.id)).toEqual(
          (await computed(users.ben.id)).map((r) => r.category_id),
        );
      } finally {
        await other.query('RESET statement_timeout');
        await client.query('COMMIT');
      }
      expect(Number((await cacheRow(users.ben.id))?.epoch)).toBe(await epoch());
    });
  });

  it('stays true while administrators grant, move, delete and regroup at once through the API', async () => {
    // Four administrators, each making, regranting, reordering, moving and deleting categories of
    // their own, and all regranting one shared category, one category group and the members of
    // one group, while staff read their lists: every
    // call answers (no deadlock, no lost write) and every person's cached rights are the tree
    // walk's afterwards.
    const arena = await seed(t, {
      users: {
        a1: { accessType: 'COMPANY ADMIN' },
        a2: { accessType: 'COMPANY ADMIN' },
        a3: { accessType: 'COMPANY ADMIN' },
        a4: { accessType: 'COMPANY ADMIN' },
        dee: {},
        eve: {},
      },
      groups: { shared: ['dee'] },
      categories: { arena: { grants: { shared: ['upload'] } } },
    });
    const { users: u, groups: g, categories: c } = arena;
    const staff = [u.dee, u.eve, world.users.ann, world.users.cy];
    const before = await epoch();
    const answers: string[] = [];
    const call = async (token: string, method: 'GET' | 'POST', url: string, payload?: unknown) => {
      const res = await callAs(t, token, { method, url, ...(payload ? { payload: payload as never } : {}) });
      if (res.statusCode !== 200)
        answers.push(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res;
    };
    const made = await call(u.a1.token, 'POST', '/api/create/category-group', { name: 'Arena group' });
    const categoryGroupId = Number(made.json().data?.id);
    const admin = async (who: typeof u.a1, n: number) => {
      const mine: number[] = [];
      const gone = new Set<number>();
      for (let i = 0; i < 6; i++) {
        const grantee = staff[(n + i) % staff.length]!;
        const made = await call(who.token, 'POST', '/api/storeFolder', {
          name: `Arena ${n}.${i}`,
          parent_id: mine.at(-1) ?? c.arena.id,
          permissions: [{ user_id: grantee.id, rights: ['view', 'upload'] }],
        });
        const id = Number(made.json().data?.id);
        mine.push(id);
        await call(who.token, 'POST', '/api/update/folder', {
          folder_id: id,
          inherit_permissions: i % 2 === 0,
          permissions: [{ user_id: staff[(n + i + 1) % staff.length]!.id, rights: ['view'] }],
        });
        await call(who.token, 'POST', '/api/update/folder', {
          folder_id: c.arena.id,
          permissions: [
            { group_id: g.shared.id, rights: ['view', 'upload'] },
            { user_id: grantee.id, rights: ['view'] },
          ],
        });
        await call(who.token, 'POST', '/api/update/category-group', {
          id: categoryGroupId,
          category_ids: mine.filter((m) => !gone.has(m)),
          permissions: [{ user_id: grantee.id, rights: ['view', 'edit'] }],
        });
        if (i === 2) await call(who.token, 'POST', '/api/update/folder', { folder_id: mine[0], position: 0 });
        await call(who.token, 'POST', `/api/edit_group/${g.shared.id}`, {
          user_ids: staff.slice(0, 1 + ((n + i) % staff.length)).map((p) => p.id),
        });
        if (i === 3)
          await call(who.token, 'POST', '/api/update/folder', { folder_id: id, parent_id: c.arena.id });
        if (i === 4) {
          await call(who.token, 'POST', '/api/deleteFolder', { folder_id: mine[0] });
          for (const m of mine.slice(0, 3)) gone.add(m); // with the two made under it
        }
      }
    };
    const reader = async (who: typeof u.dee) => {
      for (let i = 0; i < 12; i++) await call(who.token, 'GET', '/api/folders');
    };
    await Promise.all([
      admin(u.a1, 0),
      admin(u.a2, 1),
      admin(u.a3, 2),
      admin(u.a4, 3),
      reader(u.dee),
      reader(u.eve),
    ]);
    expect(answers).toEqual([]);
    expect(await epoch()).toBeGreaterThan(before);
    for (const person of [...staff, world.users.ben]) {
      const viewed = (await computed(person.id)).map((r) => r.category_id);
      expect(await cached(person.id), `user ${person.id}`).toEqual(await computed(person.id));
      const seen = await readSeenSets(t.db, { kind: 'grants', userId: person.id });
      expect(seen.kind === 'grants' ? seen.categoryIds : null, `user ${person.id}`).toEqual(viewed);
    }
  });
});
