import type { TAdminUser } from '@quire/contract';
import { screen, within } from '@testing-library/react';
import { aUser } from '../../../testing/fixtures';
import { type MockRoutes, type RecordedCall, signedInApi } from '../../../testing/mock-api';
import type { renderApp } from '../../../testing/render-app';

// The users page's tests' world: the signed-in Company Admin (ME), Alice (General staff) and
// Bob (a deactivated Company Admin), and the row menu's actions.

export function anAdminUser(overrides: Partial<TAdminUser> = {}): TAdminUser {
  return {
    ...aUser({
      id: 20,
      username: 'asmith',
      email: 'alice@example.test',
      first_name: 'Alice',
      last_name: 'Smith',
    }),
    name: 'Alice Smith',
    role: 'user',
    access_type: 'General staff',
    groups: [],
    has_signature: false,
    deleted_at: null,
    ...overrides,
  };
}

export const ALICE = anAdminUser();
export const BOB = anAdminUser({
  id: 21,
  username: 'bjones',
  email: 'bob@example.test',
  first_name: 'Bob',
  last_name: 'Jones',
  name: 'Bob Jones',
  role: 'admin',
  access_type: 'COMPANY ADMIN',
  status: 'deactivated',
});
// The signed-in admin (fixtures: id 7, jdoe).
export const ME = anAdminUser({
  id: 7,
  username: 'jdoe',
  email: 'jdoe@example.test',
  name: 'Jane Doe',
  role: 'admin',
});

export const page = (
  users: TAdminUser[],
  extra: Partial<{ page: number; total: number; last_page: number }> = {},
) => ({
  body: { data: { users, page: 1, quantity: 20, total: users.length, last_page: 1, ...extra } },
});

export function server(routes: MockRoutes = {}, as = 'COMPANY ADMIN' as const) {
  return signedInApi('admin', as, {
    'GET /api/users/all': page([ME, ALICE, BOB]),
    'GET /api/all_group': { body: { data: [] } },
    ...routes,
  });
}

export const usersCalls = (calls: RecordedCall[]) => calls.filter((c) => c.path === '/api/users/all');
export const rowOf = (name: string) => screen.getByRole('row', { name: new RegExp(name) });

/** The names of the actions in a row's "More actions" menu, left open. */
export async function openMenu(user: ReturnType<typeof renderApp>['user'], name: string) {
  await user.click(await screen.findByRole('button', { name: `More actions for ${name}` }));
  return screen.getByRole('menu', { name: `More actions for ${name}` });
}

/** Chooses an action from a row's "More actions" menu: `choose(user, 'Alice Smith', 'Delete')`. */
export async function choose(user: ReturnType<typeof renderApp>['user'], name: string, action: string) {
  const menu = await openMenu(user, name);
  await user.click(within(menu).getByRole('menuitem', { name: `${action} ${name}` }));
}
