import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../test/access.js';
import type { TestContext } from '../../test/app.js';
import { type SeededUser, seededApp } from '../../test/seed.js';
import type { AuthContext } from './session.js';
import { sameCaller, sessionsSeen } from './session-ahead.js';

// A read-only call by a session resolved a moment ago starts ahead of the session's read
// (decision 023); these are the ways that session can have changed in between.

let t: TestContext;
let staff: SeededUser;
let admin: SeededUser;
let board: number;
let desk: number;
let secret: number;

beforeAll(async () => {
  const world = await seededApp({
    users: { staff: {}, admin: { accessType: 'COMPANY ADMIN' }, owner: { signIn: false } },
    categories: { board: { name: 'Board' }, desk: { name: 'Desk', grants: { staff: [] } } },
    files: { secret: { owner: 'owner', category: 'board', name: 'ahead secret.txt' } },
  });
  ({ t } = world);
  ({ staff, admin } = world.users);
  board = world.categories.board.id;
  desk = world.categories.desk.id;
  secret = world.files.secret.id;
});
afterAll(() => t.close());

const list = (who: SeededUser, payload: object = { category_id: board }) =>
  callAs(t, who.token, { method: 'POST', url: '/api/filter-files', payload });
const listed = async (who: SeededUser) =>
  (await list(who)).json().data.items.map((f: { id: number }) => f.id);
const sessionOf = (who: SeededUser) =>
  t.db.session.findFirstOrThrow({ where: { userId: who.id, revokedAt: null } });

describe('a list call started ahead of its session', () => {
  it('is refused (401, audited) once the session has ended, not answered', async () => {
    const session = await sessionOf(staff);
    const ended = (revokedAt: Date | null) =>
      t.db.session.update({ where: { id: session.id }, data: { revokedAt } });
    const refusals = () => t.db.auditEvent.count({ where: { action: 'access.unauthenticated' } });
    const before = await refusals();
    // Each refused call follows an answered one, so it starts ahead of its session's read.
    expect((await list(staff)).statusCode).toBe(200);
    await ended(new Date());
    // A malformed body is not judged for an ended session: it is refused as unauthenticated.
    expect((await list(staff, { category_id: 'x' })).statusCode).toBe(401);
    await ended(null);
    expect((await list(staff)).statusCode).toBe(200);
    await ended(new Date());
    const refused = await list(staff);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).not.toHaveProperty('data');
    expect(await refusals()).toBe(before + 2);
    await ended(null);
    expect((await list(staff)).statusCode).toBe(200);
  });

  it('answers as the session now is when the access type changed under it', async () => {
    // An administrator (File Control) sees the board's file; demoted without the API (which
    // would end the session), their next list is a staff member's, who sees nothing there.
    expect(await listed(admin)).toEqual([secret]);
    await t.db.user.update({ where: { id: admin.id }, data: { accessType: 'GENERAL_STAFF' } });
    try {
      const after = await list(admin);
      expect(after.statusCode).toBe(200);
      expect(after.json().data.items).toEqual([]);
    } finally {
      await t.db.user.update({ where: { id: admin.id }, data: { accessType: 'COMPANY_ADMIN' } });
    }
    expect(await listed(admin)).toEqual([secret]);
  });

  it('asks for the second factor when the company began to require it', async () => {
    expect((await list(staff)).statusCode).toBe(200);
    await t.db.company.updateMany({ data: { twoFactorRequired: true } });
    try {
      const res = await list(staff);
      expect(res.statusCode).toBe(403);
      expect(res.json()).not.toHaveProperty('data');
    } finally {
      await t.db.company.updateMany({ data: { twoFactorRequired: false } });
    }
  });
});

describe('a category page started ahead of its session (its guard too)', () => {
  const page = (who: SeededUser, category = board) =>
    callAs(t, who.token, { method: 'GET', url: `/api/fileIncategory/${category}` });

  it('asks the guard again as the session now is, whichever way the change went', async () => {
    // An administrator (File Control) sees the board; demoted without the API (which would end
    // the session), the guard let them in as they were, and refuses them as they are.
    expect((await page(admin)).statusCode).toBe(200);
    await t.db.user.update({ where: { id: admin.id }, data: { accessType: 'GENERAL_STAFF' } });
    try {
      const demoted = await page(admin);
      expect(demoted.statusCode).toBe(404);
      expect(demoted.json()).not.toHaveProperty('data');
    } finally {
      await t.db.user.update({ where: { id: admin.id }, data: { accessType: 'COMPANY_ADMIN' } });
    }
    // Promoted again: the guard refused them as they were (a staff member), and lets them in.
    const promoted = await page(admin);
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json().data.items.map((f: { id: number }) => f.id)).toEqual([secret]);
  });

  it('refuses an ended session 401, whatever the guard would have said', async () => {
    expect((await page(staff, desk)).statusCode).toBe(200);
    const session = await sessionOf(staff);
    await t.db.session.update({ where: { id: session.id }, data: { revokedAt: new Date() } });
    try {
      // The board is out of the staff member's sight: a 404 would tell an ended session so.
      for (const category of [desk, board]) {
        const refused = await page(staff, category);
        expect(refused.statusCode).toBe(401);
        expect(refused.json()).not.toHaveProperty('data');
      }
    } finally {
      await t.db.session.update({ where: { id: session.id }, data: { revokedAt: null } });
    }
  });
});

describe('every call that may start ahead of its session', () => {
  it.each([
    ['GET', '/api/dashboard/table'],
    ['GET', '/api/search-files?search=ahead'],
    ['GET', '/api/all-search-files?search=ahead'],
    ['POST', '/api/filter-files'],
    ['GET', '/api/filter-attributes'],
    ['GET', '/api/unindex-file'],
    ['GET', '/api/checked-out-files'],
    ['GET', '/api/favorite-files'],
    ['GET', '/api/fileIncategory/DESK'],
    ['POST', '/api/fileIncategory/DESK'],
  ] as const)('%s %s answers an ended session 401, right after answering it', async (method, url) => {
    const call = () =>
      callAs(t, staff.token, {
        method,
        url: url.replace('DESK', String(desk)),
        ...(method === 'POST' ? { payload: {} } : {}),
      });
    expect((await call()).statusCode).toBe(200);
    const session = await sessionOf(staff);
    await t.db.session.update({ where: { id: session.id }, data: { revokedAt: new Date() } });
    try {
      const refused = await call();
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).not.toHaveProperty('data');
    } finally {
      await t.db.session.update({ where: { id: session.id }, data: { revokedAt: null } });
    }
  });
});

describe('sessionsSeen', () => {
  const auth = (over: Partial<AuthContext> = {}): AuthContext => ({
    sessionId: 's1',
    userId: 1,
    username: 'sam',
    accessType: 'General staff',
    role: 'user',
    twoFactorPending: false,
    expiresAt: new Date(),
    ...over,
  });

  it('remembers a live session for a minute, and not one waiting for its second factor', () => {
    let now = 0;
    const seen = sessionsSeen(() => now);
    seen.note('token', auth());
    seen.note('pending', auth({ twoFactorPending: true }));
    expect(seen.recent('token')?.userId).toBe(1);
    expect(seen.recent('pending')).toBeUndefined();
    now = 60_001;
    expect(seen.recent('token')).toBeUndefined();
    seen.note('token', auth());
    seen.note('token', null);
    expect(seen.recent('token')).toBeUndefined();
  });

  it('takes a session as the same caller only with the same person, role, access type and factor state', () => {
    expect(sameCaller(auth(), auth({ expiresAt: new Date(0) }))).toBe(true);
    expect(sameCaller(auth(), null)).toBe(false);
    expect(sameCaller(auth(), auth({ accessType: 'Auditor' }))).toBe(false);
    expect(sameCaller(auth(), auth({ role: 'admin' }))).toBe(false);
    expect(sameCaller(auth(), auth({ twoFactorPending: true }))).toBe(false);
    expect(sameCaller(auth(), auth({ sessionId: 's2' }))).toBe(false);
  });
});
