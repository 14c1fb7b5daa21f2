import type { AccessType, TBackup, TBackupFile } from '@quire/contract';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { aBackupSchedule, onePage } from '../../../testing/fixtures';
import { type MockRoutes, refusedAt, signedInApi } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const SCHEDULE = aBackupSchedule();

const run = (o: Partial<TBackup> = {}): TBackup => ({
  id: 1,
  kind: 'manual',
  status: 'succeeded',
  progress: 100,
  file_name: 'quire-backup-20250601-120000.tar',
  size: 5_000_000,
  migration: '0006_documents',
  has_file: true,
  verified_at: '2025-06-01T12:01:00Z',
  error: null,
  requested_by: 'admin',
  started_at: '2025-06-01T12:00:00Z',
  finished_at: '2025-06-01T12:01:00Z',
  restored_at: null,
  created_at: '2025-06-01T12:00:00Z',
  ...o,
});

const FILE: TBackupFile = {
  id: 1,
  file_name: 'quire-backup-20250601-120000.tar',
  size: 5_000_000,
  kind: 'manual',
  migration: '0006_documents',
  quire_version: '0.1.0',
  created_at: '2025-06-01T12:00:00Z',
  created_by: 'admin',
  verified_at: '2025-06-01T12:01:00Z',
};

function server(runs: TBackup[], routes: MockRoutes = {}, as: AccessType = 'COMPANY ADMIN') {
  return signedInApi('admin', as, {
    'GET /api/backup': {
      body: {
        data: onePage(runs, { schedule: SCHEDULE }),
      },
    },
    'GET /api/backup-files': { body: { data: runs.some((r) => r.has_file) ? [FILE] : [] } },
    ...routes,
  });
}

describe('the backups page', () => {
  it('lists runs with their progress; Create backup waits while one runs', async () => {
    server([run({ id: 2, status: 'running', progress: 40, file_name: null, has_file: false }), run()], {});
    renderApp('/admin/backups');
    const runs = await screen.findByRole('region', { name: 'Backup runs' }, { timeout: 5000 });
    expect(await within(runs).findByRole('progressbar', { name: 'Running: 40%' })).toHaveValue(40);
    // One at a time: the button waits while a backup runs.
    expect(within(runs).getByRole('button', { name: 'Create backup' })).toBeDisabled();
    expect(within(runs).getByText('quire-backup-20250601-120000.tar')).toBeInTheDocument();
  });

  it('restores only after the password and RESTORE typed out', async () => {
    const { calls } = server([run()], {
      'POST /api/restore_backup/1': (call) =>
        (call.body as { password: string }).password === 'right'
          ? { body: { data: run({ status: 'restoring', progress: 0 }) } }
          : refusedAt('body.password', 'The password is not correct', {
              message: 'The password is not correct',
              code: 'auth.wrong_password',
            }),
    });
    const { user, notifications } = renderApp('/admin/backups');
    const files = await screen.findByRole('region', { name: 'Backup files' }, { timeout: 5000 });
    await user.click(await within(files).findByRole('button', { name: /Restore quire-backup/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Restore this backup?' });
    await user.type(within(dialog).getByLabelText('Your password'), 'wrong');
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    expect(within(dialog).getByLabelText('Type RESTORE to confirm')).toHaveAccessibleDescription(
      'Type RESTORE to confirm',
    );
    expect(calls.some((c) => c.path === '/api/restore_backup/1')).toBe(false);
    await user.type(within(dialog).getByLabelText('Type RESTORE to confirm'), 'RESTORE');
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Your password')).toHaveAccessibleDescription(
        'The password is not correct',
      ),
    );
    await user.clear(within(dialog).getByLabelText('Your password'));
    await user.type(within(dialog).getByLabelText('Your password'), 'right');
    await user.click(within(dialog).getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(notifications.current()).toMatchObject({ title: 'Restore started' }));
    expect(calls.filter((c) => c.path === '/api/restore_backup/1').at(-1)?.body).toEqual({
      password: 'right',
      confirmation: 'RESTORE',
    });
  });

  it('tells what is wrong with a cron expression in a sentence at the field, before sending it', async () => {
    const { calls } = server([], {
      'POST /api/schedule_backup': {
        body: { data: { ...SCHEDULE, frequency: 'custom', cron: '0 3 * * 1' } },
      },
    });
    const { user, notifications } = renderApp('/admin/backups');
    await user.selectOptions(await screen.findByLabelText('How often', {}, { timeout: 5000 }), 'custom');
    const cron = screen.getByLabelText('Cron expression');
    await user.clear(cron);
    await user.type(cron, '0 3 * *');
    await user.click(screen.getByRole('button', { name: 'Save schedule' }));
    await waitFor(() => expect(cron).toHaveFocus());
    expect(cron).toHaveAccessibleDescription(
      /^Give five fields \(minute hour day month weekday\), or six with the second first/,
    );
    await user.clear(cron);
    await user.type(cron, '0 25 * * 1');
    await user.click(screen.getByRole('button', { name: 'Save schedule' }));
    await waitFor(() => expect(cron).toHaveAccessibleDescription(/^Hour must be 0-23/));
    expect(calls.some((c) => c.path === '/api/schedule_backup')).toBe(false);

    await user.clear(cron);
    await user.type(cron, '0 3 * * 1');
    await user.click(screen.getByRole('button', { name: 'Save schedule' }));
    await waitFor(() => expect(notifications.current()?.title).toBe('Backup schedule saved'));
    expect(calls.find((c) => c.path === '/api/schedule_backup')?.body).toMatchObject({
      frequency: 'custom',
      cron: '0 3 * * 1',
    });
  });

  it('shows the lists read-only to an Auditor', async () => {
    server([run()], {}, 'Auditor');
    renderApp('/admin/backups');
    const runs = await screen.findByRole('region', { name: 'Backup runs' }, { timeout: 5000 });
    await within(runs).findByText('quire-backup-20250601-120000.tar');
    expect(within(runs).queryByRole('button', { name: 'Create backup' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Restore quire-backup/ })).toBeNull();
  });
});
