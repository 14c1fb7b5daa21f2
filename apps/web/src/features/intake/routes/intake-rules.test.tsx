import type { TDryRunRow, TIntakeRule, TIntakeSource } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aMetadataField } from '../../../testing/fixtures';
import { renderApp } from '../../../testing/render-app';
import { arrival, rule, ruleSent, sent, server, source, sourceSent } from '../testing/intake-server';

// Intake (File Control), its rules and arrivals: rules added and edited from the form (what
// they match, where they file, for whom they leave files unindexed), moved, tried in a dry
// run; a failed arrival taken again.

describe('intake: rules and arrivals', { timeout: 60_000 }, () => {
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
