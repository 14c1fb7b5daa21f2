import { calls } from '@quire/contract/calls';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { apiQueryOptions, callApi } from '../lib/api-client';
import { errorMessage } from '../lib/error-message';
import { plural } from '../lib/format';
import { saveBlob } from '../lib/save-blob';
import { Button } from './button';
import { ConfirmDialog } from './confirm-dialog';
import { useNotify } from './notifications/notification-context';

// The actions on the files selected in a list (category files, favourites, checked out,
// search results): download as one zip or as one PDF (PDFs and images only), move, follow,
// start a workflow, delete. Each sends one call with every id; the server does all or nothing
// and names the file(s) it refused.

type Action = 'move' | 'follow' | 'workflow' | 'delete';

function Picker({
  label,
  value,
  onChange,
  options,
  loading,
  empty,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  options: Array<{ id: number; name: string }>;
  loading: boolean;
  empty: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{loading ? 'Loading…' : options.length ? 'Choose…' : empty}</option>
        {options.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The bar's buttons for the selected `ids`; `onDone` after a change (the list clears its selection). */
export function BulkFileActions({ ids, onDone }: { ids: number[]; onDone: () => void }) {
  const notify = useNotify();
  // The bar has no fields to mark: a refusal's own sentence (which names the files) is shown.
  const failed = (title: string, error: unknown) => notify.error(title, errorMessage(error));
  const client = useQueryClient();
  const [open, setOpen] = useState<Action | null>(null);
  const [choice, setChoice] = useState('');
  const categories = useQuery({
    ...apiQueryOptions(calls.category.fileCategories, { query: { right: 'upload' } }),
    enabled: open === 'move',
  });
  const workflows = useQuery({
    ...apiQueryOptions(calls.workflow.workflows),
    enabled: open === 'workflow',
  });
  const files = plural(ids.length, 'file', 'files');

  const act = useMutation({
    mutationFn: async (action: Action) => {
      const file_ids = ids;
      if (action === 'move')
        return callApi(calls.fileBulk.bulkMove, { body: { file_ids, folder_id: Number(choice) } });
      if (action === 'follow') return callApi(calls.fileBulk.bulkFollow, { body: { file_ids } });
      if (action === 'workflow')
        return callApi(calls.workflow.initiateWorkflow, {
          body: { workflow_id: Number(choice), file_ids },
        });
      return callApi(calls.fileActions.delete, { body: { file_ids } });
    },
    onSuccess: (_result, action) => {
      const done: Record<Action, [string, string]> = {
        move: ['Files moved', `${files} moved.`],
        follow: ['Files followed', `You are told when ${ids.length === 1 ? 'it changes' : 'they change'}.`],
        workflow: ['Workflow started', `${files} started on the workflow.`],
        delete: ['Files deleted', `${files} moved to the trash. You can restore them from My deleted files.`],
      };
      notify.success(...done[action]);
      setOpen(null);
      void client.invalidateQueries();
      onDone();
    },
    onError: (error, action) => {
      const what = { move: 'move', follow: 'follow', workflow: 'start the workflow on', delete: 'delete' }[
        action
      ];
      failed(`Failed to ${what} files!`, error);
    },
  });

  const zip = useMutation({
    mutationFn: () => callApi(calls.fileBulk.downloadZip, { body: { file_ids: ids } }),
    onSuccess: ({ data }) => {
      saveBlob(data as Blob, 'Quire files.zip');
      notify.success('Download ready', `${files} in one zip.`);
    },
    onError: (error) => failed('Failed to download files!', error),
  });

  const pdf = useMutation({
    mutationFn: () => callApi(calls.fileBulk.downloadPdf, { body: { file_ids: ids } }),
    onSuccess: ({ data }) => {
      saveBlob(data as Blob, 'Quire files.pdf');
      notify.success('Download ready', `${files} in one PDF.`);
    },
    onError: (error) => failed('Failed to make one PDF of the files!', error),
  });

  const start = (action: Action) => {
    setChoice('');
    setOpen(action);
  };
  const busy = act.isPending || zip.isPending || pdf.isPending;
  const close = () => (act.isPending ? undefined : setOpen(null));
  const needsChoice = (open === 'move' || open === 'workflow') && !choice;

  return (
    <>
      <Button small onClick={() => zip.mutate()} disabled={busy} aria-busy={zip.isPending || undefined}>
        {zip.isPending ? 'Preparing zip…' : 'Download'}
      </Button>
      <Button small onClick={() => pdf.mutate()} disabled={busy} aria-busy={pdf.isPending || undefined}>
        {pdf.isPending ? 'Making PDF…' : 'Download as one PDF'}
      </Button>
      <Button small onClick={() => start('move')} disabled={busy}>
        Move…
      </Button>
      <Button small onClick={() => start('follow')} disabled={busy}>
        Follow
      </Button>
      <Button small onClick={() => start('workflow')} disabled={busy}>
        Start workflow…
      </Button>
      <button
        type="button"
        className="button button--small button--danger"
        onClick={() => start('delete')}
        disabled={busy}
      >
        Delete…
      </button>
      {open ? (
        <ConfirmDialog
          title={
            {
              move: `Move ${files}`,
              follow: `Follow ${files}`,
              workflow: `Start a workflow on ${files}`,
              delete: `Delete ${files}`,
            }[open]
          }
          confirmLabel={{ move: 'Move', follow: 'Follow', workflow: 'Start', delete: 'Delete' }[open]}
          pendingLabel={
            { move: 'Moving…', follow: 'Following…', workflow: 'Starting…', delete: 'Deleting…' }[open]
          }
          tone={open === 'delete' ? 'danger' : 'default'}
          pending={act.isPending}
          onCancel={close}
          onConfirm={() => {
            if (needsChoice) {
              notify.error(
                'Choose first',
                open === 'move' ? 'Choose the category to move to.' : 'Choose a workflow.',
              );
              return;
            }
            act.mutate(open);
          }}
        >
          {open === 'move' ? (
            <>
              <p>Every file goes, or none: a file you may not move stops them all.</p>
              <Picker
                label="Move to category"
                value={choice}
                onChange={setChoice}
                options={(categories.data ?? []).map((c) => ({ id: c.id, name: c.path }))}
                loading={categories.isPending}
                empty="No category you may upload into"
              />
            </>
          ) : open === 'workflow' ? (
            <Picker
              label="Workflow"
              value={choice}
              onChange={setChoice}
              options={workflows.data ?? []}
              loading={workflows.isPending}
              empty="No active workflow"
            />
          ) : open === 'follow' ? (
            <p>You will be told in the app when any of them changes.</p>
          ) : (
            <p>
              They go to the trash. You can restore them from My deleted files, or ask a File Control admin.
            </p>
          )}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
