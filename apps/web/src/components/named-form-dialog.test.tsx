import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/api-error';
import { fakeMutation, renderWithNotifications } from '../testing/notifications';
import { NamedFormDialog } from './named-form-dialog';

type Team = { name: string; description: string; member_ids: number[] };

function TeamDialog({ editing, outcome }: { editing?: string; outcome: Team | Error }) {
  const form = useForm<Team>({ defaultValues: { name: editing ?? 'Ops', description: '', member_ids: [] } });
  return (
    <NamedFormDialog
      noun="team"
      editing={editing}
      createLabel="Create team"
      onClose={() => undefined}
      form={form}
      save={fakeMutation<Team, Team>(outcome)}
      submit={{
        created: (saved) => ['Team created', `${saved.name} is new.`],
        edited: (saved) => ['Team updated', `${saved.name} was saved.`],
      }}
      picker={{ name: 'member_ids', label: 'Members', options: [], emptyText: 'No users yet.' }}
    />
  );
}

const saved: Team = { name: 'Ops', description: '', member_ids: [] };

describe('the dialog of a named thing', () => {
  it('toasts `created` for a new thing and `edited` for one edited', async () => {
    const created = renderWithNotifications(<TeamDialog outcome={saved} />);
    await userEvent.click(screen.getByRole('button', { name: 'Create team' }));
    await waitFor(() => expect(created.store.current()).toMatchObject({ title: 'Team created' }));
    created.unmount();

    const edited = renderWithNotifications(<TeamDialog editing="Ops" outcome={saved} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(edited.store.current()).toMatchObject({ title: 'Team updated', message: 'Ops was saved.' }),
    );
  });

  it('puts a refusal beside the Name and the picker without being told of them', async () => {
    const refusal = new ApiError(400, {
      message: 'Invalid',
      errors: [
        { path: 'body.name', message: 'That name is taken' },
        { path: 'body.member_ids', message: 'Choose someone' },
      ],
    });
    const { store } = renderWithNotifications(<TeamDialog outcome={refusal} />);
    await userEvent.click(screen.getByRole('button', { name: 'Create team' }));
    await waitFor(() => expect(store.current()).toMatchObject({ title: 'Failed to create team!' }));
    expect(await screen.findByText('That name is taken')).toBeInTheDocument();
    expect(screen.getByText('Choose someone')).toBeInTheDocument();
  });
});
