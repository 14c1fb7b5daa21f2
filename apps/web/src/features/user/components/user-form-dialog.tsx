import {
  ACCESS_TYPES,
  type AccessType,
  AREA_LABELS,
  accessTypeLabel,
  canAccess,
  type LoginRole,
  mayUseRole,
  passwordProblems,
  type TAdminUser,
  USER_IMPORT_COLUMNS,
  VENDOR_ADMIN,
  ZCreateUserBody,
  ZEditUserBody,
} from '@quire/contract';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { Field, FormField } from '../../../components/form-field';
import { MultiPicker } from '../../../components/multi-picker';
import { useNotify } from '../../../components/notifications/notification-context';
import { PasswordField } from '../../../components/password-field';
import { emptyFieldErrors, type FieldErrors, fieldErrorsFrom } from '../../../lib/field-errors';
import { fieldMessages, focusFirstInvalid, setServerErrors } from '../../../lib/form';
import { useCreateUser } from '../api/create-user';
import { useEditUser } from '../api/edit-user';
import { useGroups } from '../api/get-groups';

/** Access types an administrator can give: every one but the vendor's own. */
const EMPTY_MESSAGES = {
  username: 'Enter a username',
  email: 'Enter an e-mail address',
  password: 'Enter a password',
};

export const ASSIGNABLE_ACCESS_TYPES = ACCESS_TYPES.filter((a) => a !== VENDOR_ADMIN);

/** What an access type opens to someone signed in as Admin (spec §6), in a sentence. */
export function accessTypeOpens(accessType: AccessType): string {
  const areas = (['fileControl', 'settings'] as const).flatMap((area) =>
    canAccess(accessType, area, 'write')
      ? [AREA_LABELS[area]]
      : canAccess(accessType, area, 'read')
        ? [`${AREA_LABELS[area]} (read only)`]
        : [],
  );
  return areas.length
    ? `Signed in as Admin, they open ${areas.join(' and ')}; as User, their files.`
    : 'No admin areas: they sign in as User, to their files.';
}

// The form's fields in the order they stand: a user's columns as the contract lists them for
// an import, with the groups before the password.
const FIELD_ORDER = [
  ...USER_IMPORT_COLUMNS.filter((column) => column !== 'password'),
  'group_ids',
  'password',
] as const;

interface FormState {
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  role: LoginRole;
  access_type: AccessType;
  group_ids: number[];
  password: string;
}

function initialState(user: TAdminUser | undefined): FormState {
  return {
    username: user?.username ?? '',
    email: user?.email ?? '',
    first_name: user?.first_name ?? '',
    last_name: user?.last_name ?? '',
    role: user?.role ?? 'user',
    access_type: user?.access_type ?? 'General staff',
    group_ids: user?.groups.map((g) => g.id) ?? [],
    password: '',
  };
}

export interface UserFormDialogProps {
  /** Absent: a new user. */
  user?: TAdminUser;
  /** Editing oneself: the access type and role stay as they are (the API refuses the change). */
  isSelf?: boolean;
  onClose: () => void;
}

type Parsed =
  | { kind: 'create'; body: z.output<typeof ZCreateUserBody> }
  | { kind: 'edit'; body: z.output<typeof ZEditUserBody> };

/**
 * The form's checks, with the contract's schemas: the create or edit body, the password
 * policy, "Enter …" for empty fields, and the roles an access type may sign in with.
 */
function checkUser(
  state: FormState,
  isEdit: boolean,
  isSelf: boolean,
): { found: FieldErrors; parsed?: Parsed } {
  const roleAllowed = mayUseRole(state.access_type, state.role);
  if (!isEdit) {
    const parsed = ZCreateUserBody.safeParse(state);
    const found: FieldErrors = {
      ...(parsed.success ? {} : fieldErrorsFrom(parsed.error.issues)),
      ...emptyFieldErrors(state, EMPTY_MESSAGES),
    };
    const problems = passwordProblems(state.password, { username: state.username, email: state.email });
    if (!found.password && problems.length > 0) found.password = problems[0];
    if (!roleAllowed) found.role = 'General staff sign in with the User role';
    return parsed.success && Object.keys(found).length === 0
      ? { found, parsed: { kind: 'create', body: parsed.data } }
      : { found };
  }
  const { password: _password, ...rest } = state;
  const body = isSelf ? { ...rest, role: undefined, access_type: undefined } : rest;
  const parsed = ZEditUserBody.safeParse(body);
  const found: FieldErrors = {
    ...(parsed.success ? {} : fieldErrorsFrom(parsed.error.issues)),
    ...emptyFieldErrors(body, { username: EMPTY_MESSAGES.username, email: EMPTY_MESSAGES.email }),
  };
  if (!isSelf && !roleAllowed) found.role = 'General staff sign in with the User role';
  return parsed.success && Object.keys(found).length === 0
    ? { found, parsed: { kind: 'edit', body: parsed.data } }
    : { found };
}

/** Create or edit a user: a labelled form in a modal, with the API's field errors beside the fields. */
export function UserFormDialog({ user, isSelf = false, onClose }: UserFormDialogProps) {
  const id = useId();
  const notify = useNotify();
  const createUser = useCreateUser();
  const editUser = useEditUser();
  const groups = useGroups();
  const isEdit = user !== undefined;
  const form = useForm<FormState, unknown, Parsed>({
    defaultValues: initialState(user),
    // react-hook-form runs the checks; the first field at fault gets the focus.
    resolver: async (values) => {
      const { found, parsed } = checkUser(values, isEdit, isSelf);
      if (parsed) return { values: parsed, errors: {} };
      const errors = Object.fromEntries(
        Object.entries(found)
          .filter(([, message]) => message)
          .map(([field, message]) => [field, { type: 'validate', message }]),
      );
      return { values: {}, errors };
    },
  });
  const state = form.watch();
  const errors = fieldMessages(form.formState.errors);
  const pending = createUser.isPending || editUser.isPending;

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => {
    form.setValue(key, value as never, { shouldDirty: true });
    // General staff sign in as users only (spec §6).
    if (key === 'access_type' && !mayUseRole(value as AccessType, form.getValues('role')))
      form.setValue('role', 'user');
    form.clearErrors(key);
  };

  const showServerErrors = (error: unknown) => setServerErrors(form, error, FIELD_ORDER);

  const onSubmit = form.handleSubmit((parsed) => {
    if (pending) return;
    if (parsed.kind === 'create') {
      createUser.mutate(parsed.body, {
        onSuccess: (created) => {
          notify.success('User created', `${created.name || created.username} can now sign in.`);
          onClose();
        },
        onError: (error) => {
          showServerErrors(error);
          notify.notifyFailure('Failed to create user!', error);
        },
      });
      return;
    }
    if (!user) return;
    editUser.mutate(
      { id: user.id, body: parsed.body },
      {
        onSuccess: (saved) => {
          notify.success('User updated', `${saved.name || saved.username} was saved.`);
          onClose();
        },
        onError: (error) => {
          showServerErrors(error);
          notify.notifyFailure('Failed to edit user!', error);
        },
      },
    );
  }, focusFirstInvalid(FIELD_ORDER));

  const text = (field: 'username' | 'email' | 'first_name' | 'last_name', label: string, extra = {}) => (
    <FormField
      label={label}
      name={field}
      value={state[field]}
      onChange={(e) => set(field, e.target.value)}
      error={errors[field]}
      {...extra}
    />
  );

  return (
    <Dialog
      title={isEdit ? `Edit ${user.name || user.username}` : 'New user'}
      description={
        isEdit
          ? 'A changed access type or role signs the user out.'
          : 'The person signs in with this username or e-mail and the password you set.'
      }
      onClose={onClose}
      busy={pending}
      size="large"
    >
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={pending}>
        <div className="form-grid">
          {text('username', 'Username', { autoComplete: 'off', autoCapitalize: 'none', spellCheck: false })}
          {text('email', 'E-mail', { type: 'email', autoComplete: 'off' })}
          {text('first_name', 'First name', { autoComplete: 'off' })}
          {text('last_name', 'Last name', { autoComplete: 'off' })}
          <Field
            label="Access type"
            error={errors.access_type}
            hint={errors.access_type ? undefined : accessTypeOpens(state.access_type)}
            describedBy={isSelf ? `${id}-self-hint` : undefined}
          >
            {(control) => (
              <select
                {...control}
                name="access_type"
                value={state.access_type}
                onChange={(e) => set('access_type', e.target.value as AccessType)}
                disabled={isSelf}
              >
                {ASSIGNABLE_ACCESS_TYPES.map((a) => (
                  <option key={a} value={a}>
                    {accessTypeLabel(a)}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            label="Usual sign-in role"
            error={errors.role}
            hint={
              isSelf || errors.role
                ? undefined
                : state.access_type === 'General staff'
                  ? 'General staff always sign in as User.'
                  : 'Kept with the account; it opens nothing by itself. The access type decides the areas, and the person picks User or Admin on the sign-in page each time.'
            }
            describedBy={isSelf ? `${id}-self-hint` : undefined}
          >
            {(control) => (
              <select
                {...control}
                name="role"
                value={state.role}
                onChange={(e) => set('role', e.target.value as LoginRole)}
                disabled={isSelf}
              >
                <option value="user">User</option>
                <option value="admin" disabled={!mayUseRole(state.access_type, 'admin')}>
                  Admin
                </option>
              </select>
            )}
          </Field>
          {isSelf ? (
            <p className="field__hint field--wide" id={`${id}-self-hint`}>
              You cannot change your own access type or role.
            </p>
          ) : null}
          <div className="field--wide">
            <MultiPicker
              label="Groups"
              name="group_ids"
              options={(groups.data ?? []).map((g) => ({ id: g.id, label: g.name, detail: g.description }))}
              selected={state.group_ids}
              onChange={(ids) => set('group_ids', ids)}
              placeholder="Type a group name"
              emptyText="No groups yet."
              loading={groups.isPending}
              error={errors.group_ids}
            />
          </div>
          {isEdit ? null : (
            <div className="field--wide">
              <PasswordField
                label="Password"
                value={state.password}
                onChange={(v) => set('password', v)}
                context={{ username: state.username, email: state.email }}
                error={errors.password}
                revealable
              />
            </div>
          )}
        </div>
        <DialogActions onCancel={onClose} pending={pending} pendingLabel="Saving…">
          {isEdit ? 'Save changes' : 'Create user'}
        </DialogActions>
      </form>
    </Dialog>
  );
}
