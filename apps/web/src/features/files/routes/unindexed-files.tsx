import type { TFieldValue, TFileSummary } from '@quire/contract';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { ApiError } from '../../../lib/api-error';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useCancelIndex, useSubmitMetas } from '../api/file-mutations';
import { useFileView, useUnindexedFiles } from '../api/file-queries';
import { FileTable } from '../components/file-table';

/** The index form of one file, built from its category's fields (as file-view lists them). */
function IndexForm({ file, onDone }: { file: TFileSummary; onDone: () => void }) {
  const notify = useNotify();
  const detail = useFileView(file.id);
  const submit = useSubmitMetas();
  const [values, setValues] = useState<Record<number, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const fields: TFieldValue[] = detail.data?.values ?? [];

  function save() {
    setErrors({});
    submit.mutate(
      {
        file_id: file.id,
        values: fields.map((f) => ({ field_id: f.field_id, value: values[f.field_id] ?? null })),
      },
      {
        onSuccess: () => {
          notify.success('File indexed', `${file.name} is now in its category.`);
          onDone();
        },
        onError: (error) => {
          const list = error instanceof ApiError ? error.errors : [];
          setErrors(Object.fromEntries(list.map((e) => [e.path.replace('body.fields.', ''), e.message])));
          notify.notifyFailure('Failed to index file', error);
        },
      },
    );
  }

  return (
    <form
      className="card"
      aria-label={`Index ${file.name}`}
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <h2>Index {file.name}</h2>
      {fields.length === 0 ? <p className="muted">This category asks for no values.</p> : null}
      {fields.map((f) => (
        <label key={f.field_id} className="field">
          <span className="field__label">{f.name}</span>
          <input
            className="input"
            type={f.type === 'date' ? 'date' : f.type === 'number' ? 'number' : 'text'}
            value={values[f.field_id] ?? ''}
            aria-invalid={errors[String(f.field_id)] ? true : undefined}
            onChange={(e) => setValues({ ...values, [f.field_id]: e.target.value })}
          />
          {errors[String(f.field_id)] ? (
            <span className="field__error">{errors[String(f.field_id)]}</span>
          ) : null}
        </label>
      ))}
      <button type="submit" className="button button--primary" disabled={submit.isPending}>
        Save and index
      </button>
    </form>
  );
}

export function UnindexedFilesPage() {
  const state = useLocation().state as { categoryId?: number } | null;
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<TFileSummary | null>(null);
  const notify = useNotify();
  const list = useUnindexedFiles({ page, folder_id: state?.categoryId });
  const cancel = useCancelIndex();
  useFailureToast(list.error, list.errorUpdatedAt, 'Failed to load file data');
  return (
    <>
      <PageHeader title="Unindexed files">Give each file its values to file it in its category.</PageHeader>
      <FileTable
        label="Unindexed files"
        rows={list.data?.items ?? []}
        busy={list.isFetching}
        page={list.data ? { ...list.data, onPage: setPage } : undefined}
        emptyText="No unindexed files"
        rowActions={(f) => (
          <>
            <button type="button" className="button button--small" onClick={() => setOpen(f)}>
              Index
            </button>
            <button
              type="button"
              className="button button--ghost button--small"
              onClick={() =>
                cancel.mutate(f.id, {
                  onError: (error) => notify.notifyFailure('Failed to cancel the upload', error),
                })
              }
            >
              Cancel upload
            </button>
          </>
        )}
      />
      {open ? <IndexForm key={open.id} file={open} onDone={() => setOpen(null)} /> : null}
    </>
  );
}
