import type { TImapSettings, TIntakeSource } from '@quire/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { invalidInput } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import {
  fillFolder,
  refusedOnce,
  sent,
  server,
  source,
  sourceForm,
  sourceSent,
} from '../testing/intake-server';

// Intake (File Control), its sources: reached from the navigation, each source with its state
// and last error; a watched folder and an e-mail inbox added and edited from the form, the
// server's refusals at their fields.

describe('intake: sources', { timeout: 60_000 }, () => {
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
});
