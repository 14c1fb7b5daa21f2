import { type TFileDetail, type TFileVersion, UPLOAD_MAX_FILES } from '@quire/contract';
import { calls } from '@quire/contract/calls';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ConfirmMutationDialog } from '../../../components/confirm-mutation-dialog';
import { FileDropZone } from '../../../components/drop-zone';
import { useNotify } from '../../../components/notifications/notification-context';
import { UploadList } from '../../../components/upload-list';
import { callApi } from '../../../lib/api-client';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { saveBlob } from '../../../lib/save-blob';
import { useUploads } from '../../../lib/use-uploads';
import {
  uploadOtherFile,
  useComment,
  useDeleteOtherFiles,
  useFilesChanged,
  useRollback,
} from '../api/file-mutations';
import { NewVersion } from './new-version';

/** The versions, newest first: download any, make an older one current again, add a new one. */
export function VersionList({ file, userId }: { file: TFileDetail; userId: number }) {
  const notify = useNotify();
  const rollback = useRollback();
  const [asked, setAsked] = useState<TFileVersion | null>(null);
  return (
    <section aria-labelledby="versions-heading">
      <h2 id="versions-heading">Versions</h2>
      {file.permissions.edit ? <NewVersion file={file} userId={userId} /> : null}
      <ol className="plain-list">
        {file.versions.map((v) => (
          <li key={v.id}>
            <strong>Version {v.number}</strong> {v.is_current ? <span className="badge">Current</span> : null}{' '}
            · {v.name} · {formatBytes(v.size)} · {v.author.name} · {formatDateTime(v.created_at)}
            {v.rolled_back_from ? ` · copy of version ${v.rolled_back_from}` : ''}
            {v.comment ? ` · ${v.comment}` : ''}{' '}
            <Button
              variant="link"
              small
              aria-label={`Download version ${v.number}`}
              onClick={() =>
                callApi(calls.fileActions.downloadFiles, {
                  params: { id: file.id },
                  query: { version: v.number },
                }).then(
                  (r) => saveBlob(r.data, v.name),
                  (error) => notify.notifyFailure('Failed to download file', error),
                )
              }
            >
              Download
            </Button>
            {!v.is_current && file.permissions.edit ? (
              <Button variant="link" small disabled={rollback.isPending} onClick={() => setAsked(v)}>
                Roll back to version {v.number}
              </Button>
            ) : null}
          </li>
        ))}
      </ol>
      {asked ? (
        <ConfirmDialog
          title={`Roll back to version ${asked.number}?`}
          confirmLabel={`Make version ${asked.number} current`}
          pendingLabel="Rolling back…"
          pending={rollback.isPending}
          onCancel={() => setAsked(null)}
          onConfirm={() =>
            rollback.mutate(
              { file_id: file.id, version_id: asked.id },
              {
                onSuccess: (res) => {
                  notify.success(
                    `Version ${asked.number} is current again`,
                    `It was copied as version ${res.data.number}; the versions after it are kept.`,
                  );
                  setAsked(null);
                },
                onError: (error) => notify.notifyFailure('Failed to roll back version!', error),
              },
            )
          }
        >
          Version {asked.number} ({asked.name}, {formatDateTime(asked.created_at)}) becomes the current
          content of {file.name}, as a new version. The versions after it are kept.
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

export function CommentList({ file }: { file: TFileDetail }) {
  const notify = useNotify();
  const add = useComment();
  const [text, setText] = useState('');
  return (
    <section aria-labelledby="comments-heading">
      <h2 id="comments-heading">Comments</h2>
      <ul className="plain-list">
        {file.comments.map((c) => (
          <li key={c.id}>
            <strong>{c.author.name}</strong> <span className="muted">{formatDateTime(c.created_at)}</span>
            <p>{c.comment}</p>
          </li>
        ))}
      </ul>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate(
            { file_id: file.id, comment: text },
            {
              onSuccess: () => {
                setText('');
                notify.success('Comment added', 'The file’s followers are told.');
              },
              onError: (error) => notify.notifyFailure('Failed to add comment', error),
            },
          );
        }}
      >
        <label className="field">
          <span className="field__label">Add a comment</span>
          <textarea className="input" value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <button type="submit" className="button button--small" disabled={!text.trim() || add.isPending}>
          Comment
        </button>
      </form>
    </section>
  );
}

/** The other files attached to a file: download, combine into one PDF, attach more, remove. */
export function OtherFiles({ file }: { file: TFileDetail }) {
  const notify = useNotify();
  const remove = useDeleteOtherFiles();
  const changed = useFilesChanged();
  const [chosen, setChosen] = useState<number[]>([]);
  const [confirming, setConfirming] = useState(false);
  const uploads = useUploads((f, options) => uploadOtherFile(file.id, f, options), {
    onDone: (f) => {
      notify.success('File attached', `${f.name} is attached to ${file.name}.`);
      void changed();
    },
  });
  const names = file.other_files.filter((a) => chosen.includes(a.id)).map((a) => a.name);
  return (
    <section aria-labelledby="other-heading">
      <h2 id="other-heading">Other files</h2>
      {file.other_files.length === 0 ? <p className="muted">None attached.</p> : null}
      {file.other_files.length ? (
        <>
          <ul className="plain-list">
            {file.other_files.map((a) => (
              <li key={a.id}>
                <label>
                  <input
                    type="checkbox"
                    checked={chosen.includes(a.id)}
                    onChange={(e) =>
                      setChosen(e.target.checked ? [...chosen, a.id] : chosen.filter((x) => x !== a.id))
                    }
                  />{' '}
                  {a.name}
                </label>{' '}
                <span className="muted">{formatBytes(a.size)}</span>{' '}
                <Button
                  variant="link"
                  small
                  aria-label={`Download ${a.name}`}
                  onClick={() =>
                    callApi(calls.fileActions.downloadOtherFiles, { params: { id: a.id } }).then(
                      (r) => saveBlob(r.data, a.name),
                      (error) => notify.notifyFailure('Failed to download file', error),
                    )
                  }
                >
                  Download
                </Button>
              </li>
            ))}
          </ul>
          <Button
            small
            disabled={chosen.length === 0}
            onClick={() =>
              callApi(calls.file.downloadManyOtherFiles, { body: { ids: chosen } }).then(
                (r) => saveBlob(r.data, 'selected_files.pdf'),
                (error) => notify.notifyFailure('Failed to download files', error),
              )
            }
          >
            Download chosen as one PDF
          </Button>
          {file.permissions.edit ? (
            <Button
              variant="ghost"
              small
              disabled={chosen.length === 0 || remove.isPending}
              onClick={() => setConfirming(true)}
            >
              Remove chosen
            </Button>
          ) : null}
        </>
      ) : null}
      {file.permissions.edit ? (
        <div className="file-page__attach">
          <FileDropZone
            label="Drop other files here to attach them"
            onFiles={(files) => uploads.add(files.slice(0, UPLOAD_MAX_FILES))}
          />
          <UploadList items={uploads.items} onCancel={uploads.cancel} onDismiss={uploads.dismiss} />
        </div>
      ) : null}
      {confirming ? (
        <ConfirmMutationDialog
          title={names.length === 1 ? `Remove ${names[0]}?` : `Remove ${names.length} other files?`}
          confirmLabel="Remove"
          pendingLabel="Removing…"
          tone="danger"
          mutation={remove}
          value={chosen}
          success={[
            names.length === 1 ? 'Other file removed' : 'Other files removed',
            `${names.join(', ')} no longer attached to ${file.name}.`,
          ]}
          failure="Failed to delete file"
          onDone={() => setChosen([])}
          onClose={() => setConfirming(false)}
        >
          {names.join(', ')} will no longer be attached to {file.name}.
        </ConfirmMutationDialog>
      ) : null}
    </section>
  );
}
