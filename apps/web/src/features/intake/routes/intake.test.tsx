import type { TDryRunRow, TImapSettings, TIntakeArrival, TIntakeRule, TIntakeSource } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aCategoryOption, aMetadataField, aWorkflow, onePage } from '../../../testing/fixtures';
import { invalidInput, type MockRoutes, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

// Intake (File Control): reached from the navigation; sources with their state and last
// error; a watched folder added from the form; rules moved up and down and tried in a dry run;
// a failed arrival taken again.

const INBOX = aCategoryOption({ id: 4, name: 'Inbox' });
const source: TIntakeSource = {
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
const rule = (id: number, name: string): TIntakeRule => ({
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
const arrival: TIntakeArrival = {
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

function server(routes: MockRoutes) {
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
      body: { data: { items: [], page: 1, quantity: 20, total: 0, last_page: 1, unread: 0 } },
    },
    ...routes,
  });
}
/** A source's body as the form sends it: Inbox, Fran's, indexed, unless `o` says otherwise. */
const sourceSent = (o: Record<string, unknown>) => ({
  enabled: true,
  category_id: 4,
  owner_id: 5,
  file_as: 'indexed',
  unindexed_group_id: null,
  ...o,
});
/** A rule's body as the form sends it: no conditions or actions unless `o` sets them. */
const ruleSent = (o: Record<string, unknown>) => ({
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
function refusedOnce<R>(refusal: ReturnType<typeof invalidInput>, reply: R) {
  let tries = 0;
  return () => {
    tries += 1;
    return tries === 1 ? refusal : reply;
  };
}
/** The intake page on a server with `routes`, and its form that adds a source. */
async function sourceForm(routes: MockRoutes) {
  const { calls } = server(routes);
  const { user } = renderApp('/admin/intake');
  const form = await screen.findByRole('form', { name: 'Watch a folder' }, { timeout: 10_000 });
  return { calls, user, form };
}
/** Fills in a folder source: its name and path, the Inbox category, Fran as its owner. */
async function fillFolder(
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
const sent = (calls: Array<{ method: string; path: string; body: unknown }>, method: string, path: string) =>
  calls.filter((c) => c.method === method && c.path === path).map((c) => c.body);

describe('intake', { timeout: 60_000 }, () => {
  it('is in the File Control navigation and shows each source with its state, last error and counts', async () => {
    server({});
    const { user, location } = renderApp('/admin/trash');
    const nav = await screen.findByRole('navigation', { name: 'Main' }, { timeout: 10_000 });
    await user.click(within(nav).getByRole('link', { name: 'Intake' }));
    expect(location()).toBe('/admin/intake');
    const table = await screen.findByRole('table', { name: 'Intake sources' });
    const row = within(table).getByRole('row', { name: /Scanner/ });
    expect(row).toHaveTextContent('/srv/scans');
    expect(row).toHaveTextContent('Error');
    expect(row).toHaveTextContent('does not exist');
    expect(row).toHaveTextContent('12');
    expect(row).toHaveTextContent('Indexed');
  });

  it('adds a watched folder from the form, showing the server’s refusal at its field', async () => {
    const page = await sourceForm({
      'POST /api/intake/sources': refusedOnce(
        invalidInput('body.settings.path', 'Intake may watch only folders in /srv'),
        { body: { data: { ...source, id: 2, name: 'Desk' }, message: 'Intake source "Desk" added' } },
      ),
    });
    const { calls, user, form } = page;
    await user.click(within(form).getByRole('button', { name: 'Add folder' }));
    expect(await within(form).findByText('Choose the category its files go to')).toBeVisible();
    expect(sent(calls, 'POST', '/api/intake/sources')).toEqual([]);
    await fillFolder(page, 'Desk', '/etc');
    await user.click(within(form).getByRole('button', { name: 'Add folder' }));
    expect(await within(form).findByText('Intake may watch only folders in /srv')).toBeVisible();
    await user.click(within(form).getByRole('button', { name: 'Add folder' }));
    expect(await screen.findByText('Intake source "Desk" added')).toBeVisible();
    expect(sent(calls, 'POST', '/api/intake/sources')[1]).toEqual(
      sourceSent({ kind: 'folder', name: 'Desk', settings: { path: '/etc', subfolders: false } }),
    );
  });

  it('leaves a source’s files for a group, chosen with the keyboard, the refusal at the Group field', async () => {
    const page = await sourceForm({
      'POST /api/intake/sources': refusedOnce(
        invalidInput('body.unindexed_group_id', 'Choose a group that exists'),
        { body: { data: { ...source, id: 2, name: 'Post' }, message: 'Intake source "Post" added' } },
      ),
    });
    const { calls, user, form } = page;
    await fillFolder(page, 'Post', '/srv/post');
    const filed = within(form).getByRole('group', { name: 'Files are' });
    expect(within(filed).getByRole('radio', { name: 'Indexed into the category' })).toBeChecked();
    within(filed).getByRole('radio', { name: 'Indexed into the category' }).focus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(within(filed).getByRole('radio', { name: /Left unindexed for a group/ })).toBeChecked();
    await user.click(within(form).getByRole('button', { name: 'Add folder' }));
    expect(await within(form).findByText('Choose the group it is left for')).toBeVisible();
    expect(sent(calls, 'POST', '/api/intake/sources')).toEqual([]);
    const group = within(filed).getByRole('combobox', { name: 'Group' });
    await within(form).findByRole('option', { name: 'Accounts' });
    await user.selectOptions(group, '8');
    await user.click(within(form).getByRole('button', { name: 'Add folder' }));
    expect(await within(form).findByText('Choose a group that exists')).toBeVisible();
    expect(group).toHaveAttribute('aria-invalid', 'true');
    await user.click(within(form).getByRole('button', { name: 'Add folder' }));
    expect(await screen.findByText('Intake source "Post" added')).toBeVisible();
    expect(sent(calls, 'POST', '/api/intake/sources')[1]).toEqual(
      sourceSent({
        kind: 'folder',
        name: 'Post',
        file_as: 'unindexed',
        unindexed_group_id: 8,
        settings: { path: '/srv/post', subfolders: false },
      }),
    );
    expect(within(form).getByRole('radio', { name: 'Indexed into the category' })).toBeChecked();
  });

  it('adds a rule that leaves what it matches unindexed for a person, with no values or tags', async () => {
    const { calls } = server({
      'POST /api/intake/rules': {
        body: { data: rule(3, 'For Fran'), message: 'Intake rule "For Fran" added' },
      },
    });
    const { user } = renderApp('/admin/intake');
    const form = await screen.findByRole('form', { name: 'Add a rule' }, { timeout: 10_000 });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'For Fran');
    await within(form).findByRole('option', { name: 'Inbox' });
    await user.selectOptions(within(form).getByRole('combobox', { name: 'File into' }), '4');
    expect(within(form).getByRole('combobox', { name: 'Tags' })).toBeVisible();
    await user.click(within(form).getByRole('radio', { name: 'Left unindexed for a person' }));
    expect(within(form).queryByRole('combobox', { name: 'Tags' })).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Add rule' }));
    expect(await within(form).findByText('Choose the person it is left for')).toBeVisible();
    await within(form).findByRole('option', { name: /fran/ });
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Person' }), '5');
    await user.click(within(form).getByRole('button', { name: 'Add rule' }));
    expect(await screen.findByText('Intake rule "For Fran" added')).toBeVisible();
    expect(sent(calls, 'POST', '/api/intake/rules')).toEqual([
      ruleSent({ name: 'For Fran', category_id: 4, unindexed_user_id: 5 }),
    ]);
  });

  it('adds an e-mail inbox: its fields checked, Test connection, the server’s refusal at its field', async () => {
    const { calls, user, form } = await sourceForm({
      'POST /api/intake/sources/test-inbox': {
        body: { data: { mailbox: 'INBOX', messages: 3, idle: true }, message: 'The inbox answered' },
      },
      'POST /api/intake/sources': refusedOnce(
        invalidInput('body.settings.host', 'This host is on this machine or a private network'),
        { body: { data: { ...source, id: 3, name: 'Invoices' }, message: 'Intake source "Invoices" added' } },
      ),
    });
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Files arrive from' }), 'imap');
    expect(form).toHaveAccessibleName('Read an e-mail inbox');
    expect(within(form).queryByRole('textbox', { name: /Folder on the server/ })).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Add inbox' }));
    expect(within(form).getAllByText('Required')).toHaveLength(3);
    expect(sent(calls, 'POST', '/api/intake/sources')).toEqual([]);

    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Invoices');
    await user.type(within(form).getByRole('textbox', { name: 'IMAP server' }), 'imap.example.com');
    await user.type(within(form).getByRole('textbox', { name: 'User name' }), 'invoices');
    await user.type(within(form).getByLabelText('Password'), 'mail-secret');
    await user.type(within(form).getByRole('textbox', { name: 'Only from senders containing' }), 'acme');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'After taking a message' }), 'move');
    await user.type(within(form).getByRole('textbox', { name: 'Move it to' }), 'Filed');
    await user.type(
      within(form).getByRole('textbox', { name: 'CA certificate (optional)' }),
      '-----BEGIN CERTIFICATE-----MIIBcompany-----END CERTIFICATE-----',
    );
    await user.click(within(form).getByRole('button', { name: 'Test connection' }));
    expect(
      await within(form).findByText('INBOX answered: 3 messages, new mail is seen at once (IDLE).'),
    ).toBeVisible();
    const settings = {
      host: 'imap.example.com',
      port: 993,
      tls: true,
      user: 'invoices',
      password: 'mail-secret',
      mailbox: 'INBOX',
      sender_filter: 'acme',
      subject_filter: '',
      after_take: 'move',
      move_to: 'Filed',
      take_message: false,
      ca_certificate: '-----BEGIN CERTIFICATE-----MIIBcompany-----END CERTIFICATE-----',
    };
    expect(sent(calls, 'POST', '/api/intake/sources/test-inbox')).toEqual([{ settings }]);

    await within(form).findByRole('option', { name: 'Inbox' });
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Category' }), '4');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Owner' }), '5');
    await user.click(within(form).getByRole('button', { name: 'Add inbox' }));
    expect(await within(form).findByText('This host is on this machine or a private network')).toBeVisible();
    expect(within(form).getByRole('textbox', { name: 'IMAP server' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await user.click(within(form).getByRole('button', { name: 'Add inbox' }));
    expect(await screen.findByText('Intake source "Invoices" added')).toBeVisible();
    expect(sent(calls, 'POST', '/api/intake/sources')[1]).toEqual(
      sourceSent({ kind: 'imap', name: 'Invoices', settings }),
    );
  });

  it('edits a watched folder and an e-mail inbox in the same form, keeping the stored password', async () => {
    const inbox: TIntakeSource = {
      ...source,
      id: 2,
      kind: 'imap',
      name: 'Invoices',
      settings: {
        host: 'imap.example.com',
        port: 993,
        tls: true,
        user: 'invoices',
        mailbox: 'INBOX',
        sender_filter: 'acme',
        subject_filter: '',
        after_take: 'mark',
        move_to: '',
        take_message: false,
        ca_certificate: '',
        has_password: true,
      },
    };
    const { has_password: _shownOnly, ...stored } = inbox.settings as TImapSettings;
    const { calls } = server({
      'GET /api/intake/sources': { body: { data: { items: [source, inbox] } } },
      'PUT /api/intake/sources/1': refusedOnce(
        invalidInput('body.settings.path', 'Intake may watch only folders in /srv'),
        { body: { data: { ...source, name: 'Scans' }, message: 'Intake source "Scans" saved' } },
      ),
      'PUT /api/intake/sources/2': {
        body: { data: inbox, message: 'Intake source "Invoices" saved' },
      },
    });
    const { user } = renderApp('/admin/intake');
    const table = await screen.findByRole('table', { name: 'Intake sources' }, { timeout: 10_000 });
    await screen.findByRole('form', { name: 'Watch a folder' });
    await within(screen.getByRole('form', { name: 'Watch a folder' })).findByRole('option', {
      name: 'Inbox',
    });
    await within(screen.getByRole('form', { name: 'Watch a folder' })).findByRole('option', {
      name: /fran/,
    });
    await user.click(within(table).getByRole('button', { name: 'Edit Scanner' }));
    const folderForm = await screen.findByRole('form', { name: 'Edit Scanner' });
    expect(within(folderForm).getByRole('combobox', { name: 'Files arrive from' })).toBeDisabled();
    const name = within(folderForm).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Scanner');
    const path = within(folderForm).getByRole('textbox', { name: /Folder on the server/ });
    expect(path).toHaveValue('/srv/scans');
    expect(within(folderForm).getByRole('combobox', { name: 'Category' })).toHaveValue('4');
    expect(within(folderForm).getByRole('combobox', { name: 'Owner' })).toHaveValue('5');
    await user.clear(name);
    await user.type(name, 'Scans');
    await user.clear(path);
    await user.type(path, '/etc/scans');
    await user.click(within(folderForm).getByRole('button', { name: 'Save source' }));
    expect(await within(folderForm).findByText('Intake may watch only folders in /srv')).toBeVisible();
    await user.clear(path);
    await user.type(path, '/srv/desk');
    await user.click(within(folderForm).getByRole('checkbox', { name: /On: look at it/ }));
    await user.click(within(folderForm).getByRole('button', { name: 'Save source' }));
    expect(await screen.findByText('Intake source "Scans" saved')).toBeVisible();
    expect(screen.queryByRole('form', { name: 'Edit Scanner' })).toBeNull();
    expect(sent(calls, 'PUT', '/api/intake/sources/1')[1]).toEqual(
      sourceSent({
        kind: 'folder',
        name: 'Scans',
        enabled: false,
        settings: { path: '/srv/desk', subfolders: false },
      }),
    );

    await user.click(within(table).getByRole('button', { name: 'Edit Invoices' }));
    const inboxForm = await screen.findByRole('form', { name: 'Edit Invoices' });
    expect(within(inboxForm).getByRole('textbox', { name: 'IMAP server' })).toHaveValue('imap.example.com');
    expect(within(inboxForm).getByText('Leave empty to keep the stored password.')).toBeVisible();
    const subject = within(inboxForm).getByRole('textbox', { name: 'Only subjects containing' });
    await user.type(subject, 'Invoice');
    await user.click(within(inboxForm).getByRole('button', { name: 'Save source' }));
    expect(await screen.findByText('Intake source "Invoices" saved')).toBeVisible();
    expect(sent(calls, 'PUT', '/api/intake/sources/2')).toEqual([
      sourceSent({
        kind: 'imap',
        name: 'Invoices',
        // As stored, the subject typed in; no password: the stored one is kept.
        settings: { ...stored, subject_filter: 'Invoice' },
      }),
    ]);
  });

  it('adds a rule from the form: a file name, words of the text, a category and a workflow to start', async () => {
    const { calls } = server({
      'POST /api/intake/rules': {
        body: { data: rule(3, 'Approvals'), message: 'Intake rule "Approvals" added' },
      },
    });
    const { user } = renderApp('/admin/intake');
    const form = await screen.findByRole('form', { name: 'Add a rule' }, { timeout: 10_000 });
    await user.click(within(form).getByRole('button', { name: 'Add rule' }));
    expect(await within(form).findByText('Required')).toBeVisible();
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Approvals');
    await user.type(within(form).getByRole('textbox', { name: /File name/ }), 'invoice-*.pdf');
    await user.type(within(form).getByRole('textbox', { name: /Words in the text/ }), 'total due, ACME');
    await within(form).findByRole('option', { name: 'Invoice approval' });
    await user.selectOptions(within(form).getByRole('combobox', { name: 'File into' }), '4');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Start workflow' }), '3');
    await user.click(within(form).getByRole('button', { name: 'Add rule' }));
    expect(await screen.findByText('Intake rule "Approvals" added')).toBeVisible();
    expect(sent(calls, 'POST', '/api/intake/rules')).toEqual([
      ruleSent({
        name: 'Approvals',
        name_glob: 'invoice-*.pdf',
        text_words: ['total due', 'ACME'],
        category_id: 4,
        workflow_id: 3,
      }),
    ]);
  });

  it('edits a source and a rule that leave files for a group or a person, their choice shown', async () => {
    const forGroup: TIntakeSource = {
      ...source,
      file_as: 'unindexed',
      unindexed_group: { id: 8, name: 'Accounts' },
    };
    const forFran: TIntakeRule = { ...rule(1, 'Invoices'), unindexed_user: { id: 5, username: 'fran' } };
    const { calls } = server({
      'GET /api/intake/sources': { body: { data: { items: [forGroup] } } },
      'GET /api/intake/rules': { body: { data: { items: [forFran] } } },
      'PUT /api/intake/sources/1': { body: { data: forGroup, message: 'Intake source "Scanner" saved' } },
      'PUT /api/intake/rules/1': { body: { data: forFran, message: 'Intake rule changed' } },
    });
    const { user } = renderApp('/admin/intake');
    const row = await screen.findByRole('row', { name: /Scanner/ }, { timeout: 10_000 });
    expect(row).toHaveTextContent('Unindexed for group Accounts');
    await user.click(within(row).getByRole('button', { name: 'Edit Scanner' }));
    const sourceEdit = await screen.findByRole('form', { name: 'Edit Scanner' });
    expect(within(sourceEdit).getByRole('radio', { name: /Left unindexed for a group/ })).toBeChecked();
    await within(sourceEdit).findByRole('option', { name: 'Accounts' });
    expect(within(sourceEdit).getByRole('combobox', { name: 'Group' })).toHaveValue('8');
    await user.click(within(sourceEdit).getByRole('radio', { name: 'Left unindexed for the owner' }));
    expect(within(sourceEdit).queryByRole('combobox', { name: 'Group' })).toBeNull();
    await user.click(within(sourceEdit).getByRole('button', { name: 'Save source' }));
    expect(await screen.findByText('Intake source "Scanner" saved')).toBeVisible();
    expect(sent(calls, 'PUT', '/api/intake/sources/1')).toEqual([
      sourceSent({
        kind: 'folder',
        name: 'Scanner',
        file_as: 'unindexed',
        settings: { path: '/srv/scans', subfolders: false },
      }),
    ]);

    await user.click(screen.getByRole('button', { name: 'Edit Invoices' }));
    const ruleEdit = await screen.findByRole('form', { name: 'Change Invoices' });
    expect(within(ruleEdit).getByRole('radio', { name: 'Left unindexed for a person' })).toBeChecked();
    expect(within(ruleEdit).getByRole('combobox', { name: 'Person' })).toHaveValue('5');
    await user.click(within(ruleEdit).getByRole('button', { name: 'Save rule' }));
    expect(await screen.findByText('Intake rule changed')).toBeVisible();
    expect(sent(calls, 'PUT', '/api/intake/rules/1')).toEqual([
      ruleSent({ name: 'Invoices', name_glob: 'invoices-*.pdf', category_id: 4, unindexed_user_id: 5 }),
    ]);
  });

  it('edits a rule in the same form, filled in from it, and can switch it off', async () => {
    const { calls } = server({
      'PUT /api/intake/rules/1': {
        body: { data: { ...rule(1, 'Supplier invoices'), enabled: false }, message: 'Intake rule changed' },
      },
    });
    const { user } = renderApp('/admin/intake');
    await user.click(await screen.findByRole('button', { name: 'Edit Invoices' }, { timeout: 10_000 }));
    const form = await screen.findByRole('form', { name: 'Change Invoices' });
    expect(within(form).getByRole('textbox', { name: 'Name' })).toHaveValue('Invoices');
    expect(within(form).getByRole('textbox', { name: /File name/ })).toHaveValue('invoices-*.pdf');
    expect(within(form).getByRole('combobox', { name: 'File into' })).toHaveValue('4');
    const name = within(form).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Supplier invoices');
    await user.type(within(form).getByRole('textbox', { name: /Words in the text/ }), 'invoice');
    await user.click(within(form).getByRole('checkbox', { name: /On/ }));
    await user.click(within(form).getByRole('button', { name: 'Save rule' }));
    expect(await screen.findByText('Intake rule changed')).toBeVisible();
    expect(sent(calls, 'PUT', '/api/intake/rules/1')).toEqual([
      ruleSent({
        name: 'Supplier invoices',
        enabled: false,
        name_glob: 'invoices-*.pdf',
        text_words: ['invoice'],
        category_id: 4,
      }),
    ]);
    expect(sent(calls, 'POST', '/api/intake/rules')).toEqual([]);
    await waitFor(() =>
      expect(screen.queryByRole('form', { name: 'Change Invoices' })).not.toBeInTheDocument(),
    );
  });

  it('sets metadata values and tags of the category it files into, and lists them by name with the rule', async () => {
    const field = (id: number, name: string, type: 'text' | 'number' | 'boolean' | 'select' | 'user') => ({
      field: aMetadataField({
        id,
        name,
        type,
        value_list: type === 'select' ? { id: 30, name: 'Suppliers' } : null,
        required: true,
        position: id,
        usage: { categories: 1, files: 0, workflows: 0 },
        created_at: '2026-11-01T00:00:00Z',
        updated_at: '2026-11-01T00:00:00Z',
      }),
      position: id,
      required: true,
      required_override: null,
      default_value: null,
      show_in_list: true,
      inherited: false,
      inherited_from: null,
    });
    const tag = (id: number, name: string) => ({ id, folder_id: 4, name, color: null, linked_folder: null });
    const tagged = {
      ...rule(3, 'Approvals'),
      values: [
        { field_id: 13, value: 'ACME' },
        { field_id: 15, value: true },
        { field_id: 16, value: 2 },
        { field_id: 17, value: 5 },
      ],
      tag_ids: [21],
    };
    const { calls } = server({
      'GET /api/intake/rules': { body: { data: { items: [tagged] } } },
      'GET /api/folderMeta/4': {
        body: {
          data: {
            folder_id: 4,
            inherit_fields: false,
            fields: [
              field(13, 'Supplier', 'text'),
              field(14, 'Amount', 'number'),
              field(15, 'Paid', 'boolean'),
              field(16, 'Supplier list', 'select'),
              field(17, 'Approver', 'user'),
            ],
          },
        },
      },
      'GET /api/related-tags/4': { body: { data: [tag(21, 'Invoice'), tag(22, 'Urgent')] } },
      'GET /api/valuelist-items/30': {
        body: {
          data: [
            { id: 40, key: 1, label: 'Globex', position: 1 },
            { id: 41, key: 2, label: 'ACME Ltd', position: 2 },
          ],
        },
      },
      'GET /api/user_fields/users': { body: { data: [{ id: 5, name: 'Fran Control', username: 'fran' }] } },
      'POST /api/intake/rules': {
        body: { data: rule(4, 'Supplier'), message: 'Intake rule "Supplier" added' },
      },
    });
    const { user } = renderApp('/admin/intake');
    const rules = await screen.findByRole('table', { name: 'Intake rules' }, { timeout: 10_000 });
    const row = within(rules).getByRole('row', { name: /Approvals/ });
    expect(await within(row).findByText('Supplier: ACME')).toBeVisible();
    expect(within(row).getByText('Paid: Yes')).toBeVisible();
    expect(await within(row).findByText('Supplier list: ACME Ltd')).toBeVisible();
    expect(await within(row).findByText('Approver: Fran Control (fran)')).toBeVisible();
    expect(await within(row).findByText('Tags: Invoice')).toBeVisible();

    const form = screen.getByRole('form', { name: 'Add a rule' });
    expect(within(form).queryByRole('combobox', { name: 'Tags' })).toBeNull();
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Supplier');
    await within(form).findByRole('option', { name: 'Inbox' });
    await user.selectOptions(within(form).getByRole('combobox', { name: 'File into' }), '4');
    const fields = within(form).getByRole('combobox', { name: 'Metadata values to set' });
    await user.click(fields);
    await user.type(fields, 'Amo');
    await user.keyboard('{ArrowDown}{Enter}');
    await user.type(fields, 'Sup');
    await user.keyboard('{ArrowDown}{Enter}{Escape}');
    await user.type(await within(form).findByRole('spinbutton', { name: 'Amount' }), '12.5');
    await user.type(within(form).getByRole('textbox', { name: 'Supplier' }), 'ACME');
    const tags = within(form).getByRole('combobox', { name: 'Tags' });
    await user.type(tags, 'Urg');
    await user.keyboard('{ArrowDown}{Enter}{Escape}');
    await user.click(within(form).getByRole('button', { name: 'Add rule' }));
    expect(await screen.findByText('Intake rule "Supplier" added')).toBeVisible();
    expect(sent(calls, 'POST', '/api/intake/rules')).toEqual([
      ruleSent({
        name: 'Supplier',
        category_id: 4,
        values: [
          { field_id: 14, value: 12.5 },
          { field_id: 13, value: 'ACME' },
        ],
        tag_ids: [22],
      }),
    ]);
  });

  /** A dry run's row: rule Invoices would take `fileName`, file it into `category`, and so on. */
  const dryRow = (
    fileName: string,
    category: { id: number; name: string } | null,
    o: Partial<TDryRunRow> = {},
  ): TDryRunRow => ({
    arrival: { ...arrival, status: 'taken', file_name: fileName },
    rule: { id: 1, name: 'Invoices' },
    category,
    values: 0,
    tags: 0,
    workflow: null,
    unindexed_user: null,
    unindexed_group: null,
    text_unknown: false,
    ...o,
  });

  it('moves a rule down, tries the rules in a dry run, and takes a failed arrival again', async () => {
    const { calls } = server({
      'PUT /api/intake/rules-order': { body: { data: { items: [rule(2, 'Letters'), rule(1, 'Invoices')] } } },
      'GET /api/intake/dry-run': {
        body: {
          data: {
            items: [
              dryRow('invoices-1.pdf', { id: 4, name: 'Inbox' }),
              dryRow('memo-1.pdf', null, { unindexed_group: { id: 9, name: 'Accounts' } }),
              dryRow('letter-1.pdf', null, { unindexed_user: { id: 5, username: 'ann' } }),
            ],
          },
        },
      },
      'POST /api/intake/arrivals/7/retry': {
        body: { data: { id: 7 }, message: 'It will be taken again on the next look' },
      },
    });
    const { user } = renderApp('/admin/intake');
    await user.click(await screen.findByRole('button', { name: 'Move Invoices down' }, { timeout: 10_000 }));
    expect(await screen.findByText('Intake rules reordered')).toBeVisible();
    expect(sent(calls, 'PUT', '/api/intake/rules-order')).toEqual([{ ids: [2, 1] }]);
    await user.click(screen.getByRole('button', { name: 'Try the rules on the last 50 arrivals' }));
    const dry = await screen.findByRole('table', { name: 'What the rules would do' });
    const dryCells = (name: RegExp) =>
      within(within(dry).getByRole('row', { name }))
        .getAllByRole('cell')
        .map((c) => c.textContent);
    expect(dryCells(/invoices-1\.pdf/).slice(2)).toEqual(['Invoices', 'Inbox', '—', '—']);
    // A rule that leaves the file unindexed says for whom, as its other actions are shown.
    expect(dryCells(/memo-1\.pdf/).slice(2)).toEqual([
      'Invoices',
      "The source's category",
      'Group Accounts',
      '—',
    ]);
    expect(dryCells(/letter-1\.pdf/).slice(2)).toEqual(['Invoices', "The source's category", 'ann', '—']);
    const arrivals = screen.getByRole('table', { name: 'Recent arrivals' });
    expect(within(arrivals).getByRole('row', { name: /tool\.pdf/ })).toHaveTextContent('application/x-elf');
    await user.click(within(arrivals).getByRole('button', { name: 'Take tool.pdf again' }));
    expect(await screen.findByText('It will be taken again on the next look')).toBeVisible();
    expect(sent(calls, 'POST', '/api/intake/arrivals/7/retry')).toHaveLength(1);
  });
});
