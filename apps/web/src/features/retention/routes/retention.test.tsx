import type { TDisposition, TLegalHold, TRetentionRule } from '@quire/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aCategoryOption, onePage } from '../../../testing/fixtures';
import { type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

// Retention (File Control): rules set from the form, holds released with a reason, and
// dispositions approved after a confirmation that names a purge.

const me = { id: 5, name: 'Fran Control', username: 'fran' };
const CONTRACTS = aCategoryOption({ id: 4, name: 'Contracts' });
const rule: TRetentionRule = {
  id: 1,
  category: { id: 4, name: 'Contracts' },
  keep_for: 7,
  unit: 'years',
  start_from: 'upload',
  date_field: null,
  action: 'purge',
  review_group: null,
  summary: 'Keep 7 years from upload, then purge',
  updated_at: '2026-11-20T10:00:00Z',
};
const hold: TLegalHold = {
  id: 3,
  target: 'file',
  target_id: 31,
  target_name: 'nda.pdf',
  file_count: 1,
  reason: 'Dispute 17',
  set_by: me,
  set_at: '2026-11-21T10:00:00Z',
  released_at: null,
  released_by: null,
  release_reason: null,
};
const due = (over: Partial<TDisposition> = {}): TDisposition => ({
  id: 8,
  file: { id: 31, name: 'old-invoice.pdf' },
  category: { id: 4, name: 'Contracts' },
  rule_id: 1,
  rule_summary: 'Keep 7 years from upload, then purge',
  action: 'purge',
  review_group: null,
  due_at: '2026-11-01T00:00:00Z',
  status: 'pending',
  postponed_until: null,
  decided_by: null,
  decided_at: null,
  held: false,
  ...over,
});

function server(routes: MockRoutes) {
  return signedInApi('admin', 'File Control Admin', {
    'GET /api/fileCategories': { body: { data: [CONTRACTS] } },
    'GET /api/user_fields': { body: { data: [] } },
    'GET /api/category-grantees': { body: { data: { users: [], groups: [{ id: 2, name: 'Legal' }] } } },
    'GET /api/saved-views': { body: { data: { items: [] } } },
    'GET /api/get-notification': {
      body: { data: { items: [], page: 1, quantity: 20, total: 0, last_page: 1, unread: 0 } },
    },
    ...routes,
  });
}
const sent = (calls: Array<{ method: string; path: string; body: unknown }>, method: string, path: string) =>
  calls.filter((c) => c.method === method && c.path === path).map((c) => c.body);

describe('retention', { timeout: 60_000 }, () => {
  it('is in the File Control navigation; shows an empty state, then sets a rule from the form', async () => {
    const { calls } = server({
      'GET /api/retention/rules': { body: { data: { items: [] } } },
      'PUT /api/retention/categories/4/rule': {
        body: { data: rule, message: 'Retention rule of "Contracts" saved' },
      },
    });
    const { user, location } = renderApp('/admin/trash');
    const nav = await screen.findByRole('navigation', { name: 'Main' }, { timeout: 10_000 });
    await user.click(within(nav).getByRole('link', { name: 'Retention' }));
    expect(location()).toBe('/admin/retention');
    expect(await screen.findByRole('heading', { name: 'No retention rules yet' })).toBeVisible();
    const form = screen.getByRole('form', { name: "Set a category's rule" });
    await user.click(within(form).getByRole('button', { name: 'Save rule' }));
    expect(await within(form).findByText('Choose a category')).toBeVisible();
    expect(sent(calls, 'PUT', '/api/retention/categories/4/rule')).toEqual([]);
    await within(form).findByRole('option', { name: 'Contracts' });
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Category' }), '4');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Then' }), 'purge');
    await user.click(within(form).getByRole('button', { name: 'Save rule' }));
    expect(await screen.findByText('Keep 7 years from upload, then purge')).toBeVisible();
    expect(sent(calls, 'PUT', '/api/retention/categories/4/rule')).toEqual([
      { keep_for: 7, unit: 'years', start_from: 'upload', action: 'purge' },
    ]);
  });

  it('releases a hold with a reason', async () => {
    const { calls } = server({
      'GET /api/retention/holds': { body: { data: onePage([hold]) } },
      'POST /api/retention/holds/3/release': {
        body: { data: { ...hold, released_at: '2026-11-26T10:00:00Z' } },
      },
    });
    const { user } = renderApp('/admin/retention/holds');
    await user.click(
      await screen.findByRole('button', { name: 'Release the hold on nda.pdf' }, { timeout: 10_000 }),
    );
    const dialog = screen.getByRole('dialog', { name: 'Release the hold on nda.pdf?' });
    await user.click(within(dialog).getByRole('button', { name: 'Release hold' }));
    expect(await within(dialog).findByText('Say why it is released')).toBeVisible();
    await user.type(within(dialog).getByRole('textbox', { name: 'Why is it released?' }), 'Settled');
    await user.click(within(dialog).getByRole('button', { name: 'Release hold' }));
    expect(await screen.findByText('Legal hold released')).toBeVisible();
    expect(sent(calls, 'POST', '/api/retention/holds/3/release')).toEqual([{ reason: 'Settled' }]);
  });

  it('approves chosen dispositions only after a confirmation naming the purge', async () => {
    const other = due({ id: 9, file: { id: 32, name: 'old-memo.pdf' }, action: 'trash' });
    const { calls } = server({
      'GET /api/retention/dispositions': { body: { data: onePage([due(), other]) } },
      'POST /api/retention/dispositions/decide': { body: { data: { items: [] } } },
    });
    const { user } = renderApp('/admin/retention/dispositions');
    await user.click(
      await screen.findByRole('checkbox', { name: 'Choose old-invoice.pdf' }, { timeout: 10_000 }),
    );
    await user.click(screen.getByRole('checkbox', { name: 'Choose old-memo.pdf' }));
    await user.click(screen.getByRole('button', { name: 'Approve chosen (2)' }));
    const confirm = screen.getByRole('dialog', { name: 'Approve 2 dispositions?' });
    expect(confirm).toHaveTextContent(
      '1 file is deleted for good; 1 file is moved to the trash. A purge cannot be undone.',
    );
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(sent(calls, 'POST', '/api/retention/dispositions/decide')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Approve chosen (2)' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Approve and purge' }));
    expect(await screen.findByText('Dispositions approved')).toBeVisible();
    expect(sent(calls, 'POST', '/api/retention/dispositions/decide')).toEqual([
      { ids: [8, 9], decision: 'approve' },
    ]);
  });

  it('runs the scan now and says how many files fell due; an empty list says so', async () => {
    const { calls } = server({
      'GET /api/retention/dispositions': { body: { data: onePage([]) } },
      'POST /api/retention/dispositions/scan': { body: { data: { listed: 2, reopened: 0 } } },
    });
    const { user } = renderApp('/admin/retention/dispositions');
    expect(await screen.findByRole('heading', { name: 'Nothing is due' }, { timeout: 10_000 })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Scan now' }));
    expect(await screen.findByText('2 files newly due.')).toBeVisible();
    expect(sent(calls, 'POST', '/api/retention/dispositions/scan')).toHaveLength(1);
  });
});
