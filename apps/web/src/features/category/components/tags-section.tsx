import { TAG_COLOR, type TCategoryInfo, type TRelatedTag } from '@quire/contract';
import { useId, useState } from 'react';
import { Button } from '../../../components/button';
import { ConfirmDeleteDialog } from '../../../components/confirm-delete-dialog';
import { RowAction } from '../../../components/data-table';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { Field } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { ApiError } from '../../../lib/api-error';
import { errorMessage } from '../../../lib/error-message';
import { useAddRelatedTags } from '../api/add-related-tags';
import { useDeleteRelatedTag } from '../api/delete-related-tag';
import { useEditRelatedTag } from '../api/edit-related-tag';
import { useFileCategories } from '../api/get-file-categories';

interface TagForm {
  name: string;
  color: string;
  linked: string;
}

/** The related tags of a category: tags its files can carry, each possibly linking another category. */
export function TagsSection({ info, canWrite }: { info: TCategoryInfo; canWrite: boolean }) {
  const id = useId();
  const add = useAddRelatedTags();
  const remove = useDeleteRelatedTag();
  const [editing, setEditing] = useState<TRelatedTag | 'new' | null>(null);
  const [deleting, setDeleting] = useState<TRelatedTag | null>(null);

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <div className="card__header">
        <h2 id={`${id}-title`}>Related tags</h2>
        {canWrite ? (
          <Button variant="ghost" small onClick={() => setEditing('new')}>
            Add a tag
          </Button>
        ) : null}
      </div>
      {info.related_tags.length === 0 ? (
        <p className="muted">No related tags.</p>
      ) : (
        <ul className="link-list">
          {info.related_tags.map((t) => (
            <li key={t.id}>
              <span className="tag" style={t.color ? { borderColor: t.color } : undefined}>
                {t.name}
              </span>
              {t.linked_folder ? <span className="muted"> links {t.linked_folder.name}</span> : null}
              {canWrite ? (
                <span className="row-actions">
                  <RowAction label={`Edit the tag ${t.name}`} onClick={() => setEditing(t)}>
                    Edit
                  </RowAction>
                  <RowAction label={`Delete the tag ${t.name}`} danger onClick={() => setDeleting(t)}>
                    Delete
                  </RowAction>
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {editing ? (
        <TagDialog
          folderId={info.id}
          tag={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          add={add}
        />
      ) : null}
      {deleting ? (
        <ConfirmDeleteDialog
          noun="tag"
          name={deleting.name}
          remove={remove}
          value={deleting.id}
          detail={`${deleting.name} was deleted; files lose it.`}
          failure="Failed to delete the tag!"
          onClose={() => setDeleting(null)}
        >
          <p>Files carrying this tag lose it.</p>
        </ConfirmDeleteDialog>
      ) : null}
    </section>
  );
}

function TagDialog({
  folderId,
  tag,
  onClose,
  add,
}: {
  folderId: number;
  tag: TRelatedTag | null;
  onClose: () => void;
  add: ReturnType<typeof useAddRelatedTags>;
}) {
  const notify = useNotify();
  const edit = useEditRelatedTag();
  const categories = useFileCategories();
  const [form, setForm] = useState<TagForm>({
    name: tag?.name ?? '',
    color: tag?.color ?? '',
    linked: tag?.linked_folder ? String(tag.linked_folder.id) : '',
  });
  const [problems, setProblems] = useState<Partial<Record<keyof TagForm, string>>>({});
  const pending = add.isPending || edit.isPending;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const name = form.name.trim();
    const found: typeof problems = {};
    if (!name) found.name = 'Enter a name for the tag';
    if (form.color && !TAG_COLOR.test(form.color)) found.color = 'Use a colour as #rrggbb';
    setProblems(found);
    if (Object.keys(found).length || pending) return;
    const color = form.color || null;
    const linked = form.linked ? Number(form.linked) : null;
    const failed = (error: Error) => {
      if (error instanceof ApiError) {
        const field = error.errors.find((e) => /name$/.test(e.path));
        if (field) setProblems({ name: field.message });
        else setProblems({ linked: errorMessage(error) });
      }
      notify.notifyFailure(tag ? 'Failed to edit the tag!' : 'Failed to add the tag!', error);
    };
    if (tag)
      edit.mutate(
        { id: tag.id, folder_id: folderId, name, color, linked_folder_id: linked },
        { onSuccess: () => onClose(), onError: failed },
      );
    else
      add.mutate(
        { folder_id: folderId, tags: [{ name, color, linked_folder_id: linked }] },
        { onSuccess: () => onClose(), onError: failed },
      );
  };

  return (
    <Dialog
      title={tag ? `Edit the tag ${tag.name}` : 'New related tag'}
      onClose={onClose}
      busy={pending}
      size="small"
    >
      <form className="form" onSubmit={submit} noValidate>
        <Field label="Name" error={problems.name}>
          {(control) => (
            <input
              className="control"
              {...control}
              value={form.name}
              onChange={(e) => setForm({ ...form, name: e.target.value })}
            />
          )}
        </Field>
        <Field
          label={
            <>
              Colour <span className="muted">(optional, #rrggbb)</span>
            </>
          }
          error={problems.color}
        >
          {(control) => (
            <input
              className="control"
              {...control}
              value={form.color}
              placeholder="#3366ff"
              onChange={(e) => setForm({ ...form, color: e.target.value.trim() })}
            />
          )}
        </Field>
        <Field
          label={
            <>
              Links the category <span className="muted">(optional)</span>
            </>
          }
          error={problems.linked}
        >
          {(control) => (
            <select
              className="control"
              {...control}
              value={form.linked}
              onChange={(e) => setForm({ ...form, linked: e.target.value })}
            >
              <option value="">None</option>
              {(categories.data ?? [])
                .filter((c) => c.id !== folderId)
                .map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.path}
                  </option>
                ))}
            </select>
          )}
        </Field>
        <DialogActions onCancel={onClose} pending={pending} pendingLabel="Saving…">
          {tag ? 'Save' : 'Add tag'}
        </DialogActions>
      </form>
    </Dialog>
  );
}
