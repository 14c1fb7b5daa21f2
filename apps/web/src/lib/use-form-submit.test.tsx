import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { FormField } from '../components/form-field';
import { fakeMutation, renderWithNotifications } from '../testing/notifications';
import { ApiError } from './api-error';
import { checkResolver, fieldBinder } from './form';
import { type SaveMutation, sendingAs, useFormSubmit } from './use-form-submit';

type Values = { name: string };
type Saved = { id: number; name: string };

function NameForm({
  save,
  onDone,
}: {
  save: SaveMutation<Values & { list: number }, Saved>;
  onDone: () => void;
}) {
  const form = useForm<Values>({ defaultValues: { name: 'Invoices' } });
  const bind = fieldBinder(form);
  const onSubmit = useFormSubmit(form, save, {
    fields: ['name'],
    failure: 'Failed to save list!',
    body: (values) => ({ ...values, list: 7 }),
    told: (saved, values) => ['List saved', `${saved.name} (${values.name}) was saved.`],
    onDone,
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <FormField label="Name" {...bind('name')} />
      <button type="submit">Save</button>
    </form>
  );
}

function renderForm(outcome: Saved | Error) {
  const onDone = vi.fn();
  const save = fakeMutation<Values & { list: number }, Saved>(outcome);
  const { store } = renderWithNotifications(<NameForm save={save} onDone={onDone} />);
  return { store, onDone, save };
}

describe('a form that saves through useFormSubmit', () => {
  it('sends the values as the call wants them, toasts the success and hands on what was saved', async () => {
    const { store, onDone, save } = renderForm({ id: 3, name: 'Bills' });
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(save.mutate).toHaveBeenCalledWith({ name: 'Invoices', list: 7 }, expect.anything());
    await waitFor(() =>
      expect(store.current()).toMatchObject({
        kind: 'success',
        title: 'List saved',
        message: 'Bills (Invoices) was saved.',
      }),
    );
    expect(onDone).toHaveBeenCalledWith({ id: 3, name: 'Bills' }, { name: 'Invoices' });
  });

  it('puts a refusal beside its field, marks the field invalid and toasts the failure', async () => {
    const refusal = new ApiError(400, {
      message: 'Invalid input',
      errors: [{ path: 'body.name', message: 'The name is taken' }],
    });
    const { store, onDone } = renderForm(refusal);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const name = screen.getByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toHaveAccessibleDescription('The name is taken'));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(store.current()).toMatchObject({ kind: 'error', title: 'Failed to save list!' });
    expect(onDone).not.toHaveBeenCalled();
  });
});

type Pair = { first: string; second: string };

/** Two fields, the second refused empty by the form's own check; focus is left to `focusFirst`. */
function CheckedForm({ save, focusFirst }: { save: SaveMutation<Pair, Saved>; focusFirst: boolean }) {
  const form = useForm<Pair>({
    defaultValues: { first: 'Invoices', second: '' },
    shouldFocusError: false,
    resolver: checkResolver(({ second }) => ({ second: second ? undefined : 'Enter the second' })),
  });
  const bind = fieldBinder(form);
  const onSubmit = useFormSubmit(form, save, {
    fields: ['first', 'second'],
    failure: 'Failed to save!',
    told: () => ['Saved', 'It was saved.'],
    focusFirst,
  });
  return (
    <form onSubmit={onSubmit} noValidate>
      <FormField label="First" {...bind('first')} />
      <FormField label="Second" {...bind('second')} />
      <button type="submit">Save</button>
    </form>
  );
}
describe('focusFirst', () => {
  it('puts the focus in the first field the check refuses, and sends nothing', async () => {
    const save = fakeMutation<Pair, Saved>({ id: 1, name: 'x' });
    renderWithNotifications(<CheckedForm save={save} focusFirst />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Second' })).toHaveFocus());
    expect(save.mutate).not.toHaveBeenCalled();
  });

  it('leaves the focus where it was without it', async () => {
    const save = fakeMutation<Pair, Saved>({ id: 1, name: 'x' });
    renderWithNotifications(<CheckedForm save={save} focusFirst={false} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Second' })).toHaveAttribute('aria-invalid', 'true'),
    );
    expect(screen.getByRole('button', { name: 'Save' })).toHaveFocus();
  });
});

describe('sendingAs', () => {
  it('sends the values as the call wants them, with the same outcome handlers and pending state', () => {
    const edit = { isPending: true, mutate: vi.fn() };
    const save = sendingAs(edit, (values: Values) => ({ id: 4, body: values }));
    const options = { onSuccess: vi.fn(), onError: vi.fn() };
    save.mutate({ name: 'Bills' }, options);
    expect(edit.mutate).toHaveBeenCalledWith({ id: 4, body: { name: 'Bills' } }, options);
    expect(save.isPending).toBe(true);
  });
});
