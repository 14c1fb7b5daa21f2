import type { TIntakeArrival, TIntakeRule, TIntakeSource } from '@quire/contract';
import { screen, within } from '@testing-library/react';
import { aCategoryOption, aWorkflow, onePage } from '../../../testing/fixtures';
import { type invalidInput, type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

// The intake tests' world: a File Control Admin, the Inbox category, one watched folder
// (Scanner, in error), two rules (Invoices, Letters) and one failed arrival; the bodies the
// forms send; the source form filled in.

export const INBOX = aCategoryOption({ id: 4, name: 'Inbox' });
export const source: TIntakeSource = {
  id: 1,
  kind: 'folder',
  name: 'Scanner',
  enabled: true,
  category: { id: 4, name: 'Inbox' },
  file_as: 'indexed',
  owner: { id: 5, username: 'fran' },
  unindexed_group: null,
  state: 'error',
  last_error: 'The folder /srv/scans does not exist or is not a folder',
  last_run_at: '2026-11-26T10:00:00Z',
  taken_count: 12,
  failed_count: 2,
  updated_at: '2026-11-26T09:00:00Z',
  settings: { path: '/srv/scans', subfolders: false },
};
export const rule = (id: number, name: string): TIntakeRule => ({
  id,
  name,
  position: id,
  enabled: true,
  source_ids: [],
  sender_contains: '',
  name_glob: `${name.toLowerCase()}-*.pdf`,
  text_words: [],
  category: { id: 4, name: 'Inbox' },
  values: [],
  tag_ids: [],
  workflow: null,
  unindexed_user: null,
  unindexed_group: null,
  summary: `When file name "${name.toLowerCase()}-*.pdf": file into "Inbox"`,
  updated_at: '2026-11-26T09:00:00Z',
});
export const arrival: TIntakeArrival = {
  id: 7,
  source: { id: 1, name: 'Scanner', kind: 'folder' },
  status: 'failed',
  reason: 'Its content is application/x-elf, a type intake does not take',
  file_name: 'tool.pdf',
  size: 128,
  file: null,
  rule: null,
  ruled: false,
  sender: null,
  subject: null,
  created_at: '2026-11-26T10:00:00Z',
};

export function server(routes: MockRoutes) {
  return signedInApi('admin', 'File Control Admin', {
    'GET /api/fileCategories': { body: { data: [INBOX] } },
    'GET /api/category-grantees': {
      body: {
        data: {
          users: [{ id: 5, name: 'Fran Control', username: 'fran' }],
          groups: [{ id: 8, name: 'Accounts' }],
        },
      },
    },
    'GET /api/intake/sources': { body: { data: { items: [source] } } },
    'GET /api/intake/rules': { body: { data: { items: [rule(1, 'Invoices'), rule(2, 'Letters')] } } },
    'GET /api/intake/arrivals': { body: { data: onePage([arrival]) } },
    'GET /api/workflows': {
      body: {
        data: [aWorkflow({ id: 3, name: 'Invoice approval' })],
      },
    },
    'GET /api/saved-views': { body: { data: { items: [] } } },
    'GET /api/get-notification': {
      body: { data: onePage([], { unread: 0 }) },
    },
    ...routes,
  });
}
/** A source's body as the form sends it: Inbox, Fran's, indexed, unless `o` says otherwise. */
export const sourceSent = (o: Record<string, unknown>) => ({
  enabled: true,
  category_id: 4,
  owner_id: 5,
  file_as: 'indexed',
  unindexed_group_id: null,
  ...o,
});
/** A rule's body as the form sends it: no conditions or actions unless `o` sets them. */
export const ruleSent = (o: Record<string, unknown>) => ({
  enabled: true,
  source_ids: [],
  sender_contains: '',
  name_glob: '',
  text_words: [],
  category_id: null,
  values: [],
  tag_ids: [],
  workflow_id: null,
  unindexed_user_id: null,
  unindexed_group_id: null,
  ...o,
});
/** A write the server refuses the first time (naming a field), then answers with `reply`. */
export function refusedOnce<R>(refusal: ReturnType<typeof invalidInput>, reply: R) {
  let tries = 0;
  return () => {
    tries += 1;
    return tries === 1 ? refusal : reply;
  };
}
/** The intake page on a server with `routes`, and its form that adds a source. */
export async function sourceForm(routes: MockRoutes) {
  const { calls } = server(routes);
  const { user } = renderApp('/admin/intake');
  const form = await screen.findByRole('form', { name: 'Watch a folder' }, { timeout: 10_000 });
  return { calls, user, form };
}
/** Fills in a folder source: its name and path, the Inbox category, Fran as its owner. */
export async function fillFolder(
  { user, form }: { user: ReturnType<typeof renderApp>['user']; form: HTMLElement },
  name: string,
  path: string,
) {
  await user.type(within(form).getByRole('textbox', { name: 'Name' }), name);
  await user.type(within(form).getByRole('textbox', { name: /Folder on the server/ }), path);
  await within(form).findByRole('option', { name: 'Inbox' });
  await user.selectOptions(within(form).getByRole('combobox', { name: 'Category' }), '4');
  await user.selectOptions(within(form).getByRole('combobox', { name: 'Owner' }), '5');
}
export const sent = (
  calls: Array<{ method: string; path: string; body: unknown }>,
  method: string,
  path: string,
) => calls.filter((c) => c.method === method && c.path === path).map((c) => c.body);
