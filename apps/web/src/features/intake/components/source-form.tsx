import type { TIntakeSource, TIntakeSourceInput } from '@quire/contract';
import { type FormEvent, useState } from 'react';
import { DialogActions } from '../../../components/dialog-actions';
import { FormField, SelectField } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { useSaveSource } from '../api/intake';
import { readSubmit, saveIntake } from '../lib/intake-form';
import { CategoryOptions, PersonOptions } from './choice-options';
import { checkInbox, INBOX_FIELD_OF, type InboxErrors, InboxFields, inboxSettingsOf } from './inbox-fields';
import {
  checkUnindexedFor,
  UnindexedForChoice,
  type UnindexedForErrors,
  unindexedForOf,
} from './unindexed-for';

type Errors = Partial<Record<'name' | 'path' | 'category_id' | 'owner_id', string>> &
  InboxErrors &
  UnindexedForErrors;

const FIELD_OF: Record<string, keyof Errors> = {
  'body.name': 'name',
  'body.settings.path': 'path',
  'body.category_id': 'category_id',
  'body.owner_id': 'owner_id',
  'body.unindexed_group_id': 'unindexed_group_id',
  ...INBOX_FIELD_OF,
};

/**
 * Adds a source: a watched folder (where on the server) or an e-mail inbox (the IMAP fields of
 * inbox-fields.tsx), with its category, whose files, how filed. Given a `source`, the same form
 * edits it (PUT; its kind stays, an empty password keeps the stored one) and `onDone` closes it.
 */
export function SourceForm({ source, onDone }: { source?: TIntakeSource; onDone?: () => void } = {}) {
  const notify = useNotify();
  const save = useSaveSource();
  const [errors, setErrors] = useState<Errors>({});
  const [kind, setKind] = useState<'folder' | 'imap'>(source?.kind ?? 'folder');
  const [added, setAdded] = useState(0);
  const editing = source !== undefined;
  const folder = source?.kind === 'folder' ? source.settings : undefined;
  const inboxNow = source?.kind === 'imap' ? source.settings : undefined;

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    const { form, data, text } = readSubmit(e);
    if (save.isPending) return;
    const found: Errors = {};
    if (!text('name')) found.name = 'Required';
    if (kind === 'folder' && !text('path')) found.path = 'Required';
    const inbox = kind === 'imap' ? inboxSettingsOf(data) : null;
    if (inbox) Object.assign(found, checkInbox(inbox));
    if (!text('category_id')) found.category_id = 'Choose the category its files go to';
    if (!text('owner_id')) found.owner_id = 'Choose whose files they become';
    const filed = unindexedForOf(data);
    Object.assign(found, checkUnindexedFor(filed));
    setErrors(found);
    if (Object.keys(found).length) {
      notify.error('Please check the highlighted fields.');
      return;
    }
    const common = {
      name: text('name'),
      enabled: editing ? data.get('enabled') === 'on' : true,
      category_id: Number(text('category_id')),
      owner_id: Number(text('owner_id')),
      file_as: filed.filedAs === 'index' ? ('indexed' as const) : ('unindexed' as const),
      unindexed_group_id: filed.groupId,
    };
    const body: TIntakeSourceInput = inbox
      ? { ...common, kind: 'imap', settings: inbox }
      : {
          ...common,
          kind: 'folder',
          settings: { path: text('path'), subfolders: data.get('subfolders') === 'on' },
        };
    saveIntake(
      save,
      { id: source?.id ?? null, body },
      {
        notify,
        form,
        told: () => [
          editing ? 'Intake source saved' : 'Intake source added',
          body.kind === 'folder'
            ? `Watching ${body.settings.path}`
            : `Reading ${body.settings.user}@${body.settings.host}`,
        ],
        failure: editing ? 'Failed to save intake source!' : 'Failed to add intake source!',
        onDone,
        again: () => setAdded((n) => n + 1),
        setErrors,
        errorsOf: (error) => {
          if (!error.errors.length) return null;
          const next: Errors = {};
          for (const fe of error.errors) {
            const field = FIELD_OF[fe.path];
            if (field) next[field] = fe.message;
          }
          return next;
        },
      },
    );
  };

  const title = kind === 'folder' ? 'Watch a folder' : 'Read an e-mail inbox';
  return (
    <form
      className={editing ? 'form' : 'form card'}
      onSubmit={onSubmit}
      noValidate
      {...(editing ? { 'aria-label': `Edit ${source.name}` } : { 'aria-labelledby': 'source-form-title' })}
    >
      {editing ? null : <h2 id="source-form-title">{title}</h2>}
      <div className="form-grid">
        <SelectField
          label="Files arrive from"
          name="kind"
          value={kind}
          disabled={editing}
          onChange={(e) => {
            setKind(e.target.value === 'imap' ? 'imap' : 'folder');
            setErrors({});
          }}
        >
          <option value="folder">A folder on the server</option>
          <option value="imap">An e-mail inbox (IMAP)</option>
        </SelectField>
        <FormField label="Name" name="name" defaultValue={source?.name} error={errors.name} maxLength={100} />
        {kind === 'folder' ? (
          <FormField
            label="Folder on the server"
            name="path"
            defaultValue={folder?.path}
            error={errors.path}
            hint="An absolute path, inside the folders the server allows (INTAKE_FOLDERS)."
          />
        ) : (
          <InboxFields errors={errors} sourceId={source?.id} initial={inboxNow} />
        )}
        <SelectField
          label="Category"
          name="category_id"
          error={errors.category_id}
          defaultValue={source ? String(source.category.id) : ''}
        >
          <option value="">Choose a category</option>
          <CategoryOptions />
        </SelectField>
        <SelectField
          label="Owner"
          name="owner_id"
          error={errors.owner_id}
          defaultValue={source ? String(source.owner.id) : ''}
        >
          <option value="">Choose whose files they become</option>
          <PersonOptions />
        </SelectField>
        <UnindexedForChoice
          key={added}
          legend="Files are"
          kinds={['index', 'owner', 'group']}
          initial={{
            filedAs: source?.file_as !== 'unindexed' ? 'index' : source.unindexed_group ? 'group' : 'owner',
            groupId: source?.unindexed_group?.id ?? null,
          }}
          errors={errors}
        />
        {kind === 'folder' ? (
          <label className="checkbox">
            <input type="checkbox" name="subfolders" defaultChecked={folder?.subfolders ?? false} />{' '}
            Sub-folders go to the sub-categories of the same name
          </label>
        ) : null}
        {editing ? (
          <label className="checkbox">
            <input type="checkbox" name="enabled" defaultChecked={source.enabled} /> On: look at it for new
            files
          </label>
        ) : null}
      </div>
      {editing ? (
        <DialogActions pending={save.isPending} pendingLabel="Saving…" onCancel={onDone}>
          Save source
        </DialogActions>
      ) : (
        <DialogActions pending={save.isPending} pendingLabel="Adding…">
          {kind === 'folder' ? 'Add folder' : 'Add inbox'}
        </DialogActions>
      )}
    </form>
  );
}
