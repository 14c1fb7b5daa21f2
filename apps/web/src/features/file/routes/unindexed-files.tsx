import type { TFieldValueInput, TFileSummary } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useNotify } from '../../../components/notifications/notification-context';
import { PageHeader } from '../../../components/page-header';
import { callApi } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/error-message';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { useSubmitMetas, useTrash } from '../api/file-mutations';
import { useFileView, useUnindexedFiles } from '../api/file-queries';
import { useFolderMeta } from '../api/get-folder-meta';
import { FilePreview } from '../components/file-preview';
import { FileTable } from '../components/file-table';
import { type MetadataErrors, MetadataForm, metadataErrors } from '../components/metadata-form';
import { PreviewRegion } from '../components/preview-region';

/** The category's fields as a form, once they have loaded. */
function CategoryForm({
  folderId,
  label,
  submitLabel,
  busy,
  errors,
  onSubmit,
  onClose,
}: {
  folderId: number | null;
  label: string;
  submitLabel: string;
  busy: boolean;
  errors: MetadataErrors;
  onSubmit: (values: TFieldValueInput[]) => void;
  onClose: () => void;
}) {
  const meta = useFolderMeta(folderId);
  useFailureToast(meta.error, meta.errorUpdatedAt, "Failed to load the category's fields");
  if (folderId === null) return <p className="muted">This file has no category: move it to one first.</p>;
  if (!meta.data)
    return <p className="muted">{meta.isError ? 'The fields could not be loaded.' : 'Loading…'}</p>;
  return (
    <MetadataForm
      fields={meta.data.fields}
      label={label}
      submitLabel={submitLabel}
      busyLabel="Indexing…"
      busy={busy}
      errors={errors}
      onSubmit={onSubmit}
      actions={
        <Button variant="ghost" onClick={onClose} disabled={busy}>
          Close
        </Button>
      }
    />
  );
}

/** One file to index: its preview beside its category's form. */
function IndexPanel({
  file,
  onDone,
  onIndexed,
}: {
  file: TFileSummary;
  onDone: () => void;
  /** After a success: on to the next file. */
  onIndexed: () => void;
}) {
  const notify = useNotify();
  const detail = useFileView(file.id);
  const submit = useSubmitMetas();
  const [errors, setErrors] = useState<MetadataErrors>({});
  const f = detail.data;

  function save(values: TFieldValueInput[]) {
    setErrors({});
    submit.mutate(
      { file_id: file.id, values },
      {
        onSuccess: () => {
          notify.success(
            'File indexed',
            `${file.name} is now filed in ${file.folder_name ?? 'its category'}.`,
          );
          onIndexed();
        },
        onError: (error) => {
          setErrors(metadataErrors(error));
          notify.notifyFailure('Failed to index file', error);
        },
      },
    );
  }

  return (
    <section className="index-panel" aria-labelledby={`index-${file.id}`}>
      <h2 id={`index-${file.id}`}>
        Index {file.name}
        {file.folder_name ? <span className="muted"> in {file.folder_name}</span> : null}
      </h2>
      <div className="index-panel__body">
        <PreviewRegion className="index-panel__preview">
          {f ? (
            <FilePreview
              kind={f.preview}
              name={`${f.id}-${f.current_version_id}`}
              fileName={f.name}
              load={() =>
                callApi(calls.file.versionPreview, { params: { id: f.current_version_id } }).then(
                  (r) => r.data,
                )
              }
            />
          ) : (
            <p className="muted">Loading the preview…</p>
          )}
        </PreviewRegion>
        <div className="index-panel__form">
          <CategoryForm
            folderId={file.folder_id}
            label={`Index ${file.name}`}
            submitLabel="Save and index"
            busy={submit.isPending}
            errors={errors}
            onSubmit={save}
            onClose={onDone}
          />
        </div>
      </div>
    </section>
  );
}

type Outcome = { file: TFileSummary; error: string | null };

/** Several files of one category indexed with the same values, one after another. */
function BulkIndexPanel({ files, onDone }: { files: TFileSummary[]; onDone: (indexed: number[]) => void }) {
  const notify = useNotify();
  const submit = useSubmitMetas();
  const [running, setRunning] = useState(false);
  const [outcomes, setOutcomes] = useState<Outcome[] | null>(null);
  const [errors, setErrors] = useState<MetadataErrors>({});
  const first = files[0] as TFileSummary;

  async function apply(values: TFieldValueInput[]) {
    setRunning(true);
    setErrors({});
    const results: Outcome[] = [];
    for (const file of files) {
      try {
        await submit.mutateAsync({ file_id: file.id, values });
        results.push({ file, error: null });
      } catch (error) {
        results.push({ file, error: errorMessage(error) });
        const atFields = metadataErrors(error);
        if (Object.keys(atFields).length > 0) setErrors((e) => ({ ...atFields, ...e }));
      }
    }
    setRunning(false);
    setOutcomes(results);
    const failed = results.filter((r) => r.error !== null).length;
    const done = results.length - failed;
    if (failed === 0) {
      notify.success('Files indexed', `${done} ${done === 1 ? 'file is' : 'files are'} now filed.`);
      onDone(results.map((r) => r.file.id));
    } else
      notify.error(
        'Failed to index some files',
        `${done} indexed, ${failed} not: each one's reason is listed under the form.`,
      );
  }

  return (
    <section className="index-panel" aria-labelledby="bulk-index-title">
      <h2 id="bulk-index-title">
        Apply these values to {files.length} selected files
        {first.folder_name ? <span className="muted"> in {first.folder_name}</span> : null}
      </h2>
      <p className="muted">{files.map((f) => f.name).join(', ')}</p>
      <CategoryForm
        folderId={first.folder_id}
        label={`Index ${files.length} selected files`}
        submitLabel={`Index ${files.length} files`}
        busy={running}
        errors={errors}
        onSubmit={(values) => void apply(values)}
        onClose={() => onDone(outcomes?.filter((o) => o.error === null).map((o) => o.file.id) ?? [])}
      />
      {outcomes ? (
        <ul className="plain-list index-panel__outcomes" aria-label="Results">
          {outcomes.map((o) => (
            <li key={o.file.id} className={o.error ? 'field__error' : undefined}>
              {o.file.name}: {o.error ? `not indexed. ${o.error}` : 'indexed'}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export function UnindexedFilesPage() {
  const state = useLocation().state as { categoryId?: number } | null;
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<TFileSummary | null>(null);
  const [bulk, setBulk] = useState<TFileSummary[] | null>(null);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [cancelling, setCancelling] = useState<TFileSummary | null>(null);
  const notify = useNotify();
  const list = useUnindexedFiles({ page, folder_id: state?.categoryId });
  const trash = useTrash();
  useFailureToast(list.error, list.errorUpdatedAt, 'Failed to load file data');
  const rows = list.data?.items ?? [];
  /** The file after `file` in the list (else the one before), to index next. */
  const nextAfter = (file: TFileSummary) => {
    const index = rows.findIndex((r) => r.id === file.id);
    const rest = rows.filter((r) => r.id !== file.id);
    return index < 0 ? null : (rest[index] ?? rest[index - 1] ?? null);
  };

  function cancelUpload(file: TFileSummary) {
    trash.mutate([file.id], {
      onSuccess: () => {
        notify.success('Upload cancelled', `${file.name} is in the trash.`);
        setCancelling(null);
        if (open?.id === file.id) setOpen(null);
        setSelected((s) => new Set([...s].filter((id) => id !== file.id)));
      },
      onError: (error) => notify.notifyFailure('Failed to cancel the upload', error),
    });
  }

  return (
    <>
      <PageHeader title="Unindexed files">
        Give each file its values to file it in its category. Select several files of one category to give
        them the same values at once.
      </PageHeader>
      {state?.categoryId ? (
        <p className="muted">
          The files you uploaded into {rows[0]?.folder_name ?? 'this category'}.{' '}
          <Link to="/unindexed-files" replace>
            Show all unindexed files
          </Link>
        </p>
      ) : null}
      <FileTable
        label="Unindexed files"
        rows={rows}
        busy={list.isFetching}
        page={list.data ? { ...list.data, onPage: setPage } : undefined}
        emptyText="No unindexed files"
        dateLabel="Uploaded"
        extra={[{ id: 'category', label: 'Category', cell: (f) => f.folder_name ?? 'None' }]}
        selected={selected}
        onSelectionChange={setSelected}
        bulkActions={(ids) => {
          const chosen = rows.filter((f) => ids.includes(f.id));
          const categories = new Set(chosen.map((f) => f.folder_id));
          if (categories.size !== 1 || chosen[0]?.folder_id == null)
            return <span className="muted">Choose files of one category to index them together.</span>;
          return (
            <Button
              variant="primary"
              small
              onClick={() => {
                setOpen(null);
                setBulk(chosen);
              }}
            >
              Index {chosen.length} selected
            </Button>
          );
        }}
        rowActions={(f) => (
          <>
            <Button
              small
              aria-label={`Index ${f.name}`}
              onClick={() => {
                setBulk(null);
                setOpen(f);
              }}
            >
              Index
            </Button>
            <Button
              variant="ghost"
              small
              aria-label={`Cancel upload of ${f.name}`}
              onClick={() => setCancelling(f)}
            >
              Cancel upload
            </Button>
          </>
        )}
      />
      {open ? (
        <IndexPanel
          key={open.id}
          file={open}
          onDone={() => setOpen(null)}
          onIndexed={() => setOpen(nextAfter(open))}
        />
      ) : null}
      {bulk ? (
        <BulkIndexPanel
          key={bulk.map((f) => f.id).join('-')}
          files={bulk}
          onDone={(indexed) => {
            setBulk(null);
            setSelected((s) => new Set([...s].filter((id) => !indexed.includes(id))));
          }}
        />
      ) : null}
      {cancelling ? (
        <ConfirmDialog
          title={`Cancel the upload of ${cancelling.name}?`}
          confirmLabel="Move to trash"
          pendingLabel="Moving…"
          tone="danger"
          pending={trash.isPending}
          onConfirm={() => cancelUpload(cancelling)}
          onCancel={() => setCancelling(null)}
        >
          <p>
            “{cancelling.name}” will not be filed in {cancelling.folder_name ?? 'its category'}: it moves to
            the trash. You can restore it from your deleted files, and File Control from the trash.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
