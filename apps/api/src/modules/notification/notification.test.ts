import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { seededApp } from '../../../test/seed.js';

// The bell: your notifications, newest first with the unread count; mark one read; clear.

let t: TestContext;
let me = 0;
let token = '';
let otherToken = '';

beforeAll(async () => {
  const world = await seededApp({ users: { me: {}, other: {} } });
  t = world.t;
  ({ id: me, token } = world.users.me);
  otherToken = world.users.other.token;
});
afterAll(() => t.close());

const add = (title: string) =>
  t.db.notification.create({ data: { userId: me, kind: 'file.commented', title } });

describe('notifications', () => {
  it('lists yours newest first, marks one read (another user gets 404), clears', async () => {
    await add('first');
    const second = await add('second');
    const list = await callAs(t, token, { method: 'GET', url: '/api/get-notification' });
    expect(list.json().data).toMatchObject({ total: 2, unread: 2 });
    expect(list.json().data.items.map((n: { title: string }) => n.title)).toEqual(['second', 'first']);

    const theirs = await callAs(t, otherToken, {
      method: 'POST',
      url: `/api/mark-notification-as-read/${second.id}`,
    });
    expect(theirs.statusCode).toBe(404);
    const read = await callAs(t, token, {
      method: 'POST',
      url: `/api/mark-notification-as-read/${second.id}`,
    });
    expect(read.json().data.read).toBe(true);
    expect((await callAs(t, token, { method: 'GET', url: '/api/get-notification' })).json().data.unread).toBe(
      1,
    );
    expect(
      (await callAs(t, token, { method: 'POST', url: '/api/mark-notification-as-read/abc' })).statusCode,
    ).toBe(400);

    expect(
      (await callAs(t, otherToken, { method: 'POST', url: '/api/clear-notifications' })).json().data.cleared,
    ).toBe(0);
    const cleared = await callAs(t, token, { method: 'POST', url: '/api/clear-notifications' });
    expect(cleared.json().data.cleared).toBe(2);
    expect(await t.db.notification.count({ where: { userId: me } })).toBe(0);
    expect(await t.db.auditEvent.count({ where: { action: 'notification.cleared', userId: me } })).toBe(1);
    expect((await callAs(t, null, { method: 'GET', url: '/api/get-notification' })).statusCode).toBe(401);
  });
});
