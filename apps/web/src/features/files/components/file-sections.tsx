import { contract, type TFileDetail } from '@quire/contract';
import { useState } from 'react';
import { useNotify } from '../../../components/notifications/notification-context';
import { callApi } from '../../../lib/api-client';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { saveBlob } from '../../../lib/save-blob';
import { useComment, useDeleteOtherFiles, useRollback } from '../api/file-mutations';

/** The versions, newest first: download any, make an older one current again. */
export function VersionList({ file }: { file: TFileDetail }) {
  const notify = useNotify();
  const rollback = useRollback();
  return (
    <section aria-labelledby="versions-heading">
      <h2 id="versions-heading">Versions</h2>
      <ol className="plain-list">
        {file.versions.map((v) => (
          <li key={v.id}>
            <strong>Version {v.number}</strong> {v.is_current ? <span className="badge">Current</span> : null}{' '}
            · {v.name} · {formatBytes(v.size)} · {v.author.name} · {formatDateTime(v.created_at)}
            {v.comment ? ` · ${v.comment}` : ''}{' '}
            <button
              type="button"
              className="button button--link button--small"
              onClick={() =>
                callApi(contract.fileActions.downloadFiles, {
                  params: { id: file.id },
                  query: { version: v.number },
                }).then(
                  (r) => saveBlob(r.data, v.name),
                  (error) => notify.notifyFailure('Failed to download file', error),
                )
              }
            >
              Download
            </button>
            {!v.is_current && file.permissions.edit ? (
              <button
                type="button"
                className="button button--link button--small"
                onClick={() =>
                  rollback.mutate(
                    { file_id: file.id, version_id: v.id },
                    {
                      onSuccess: () => notify.success(`Version ${v.number} is current again`),
                      onError: (error) => notify.notifyFailure('Failed to roll back version!', error),
                    },
                  )
                }
              >
                Roll back to version {v.number}
              </button>
            ) : null}
          </li>
        ))}
      </ol>
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
              onSuccess: () => setText(''),
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

export function OtherFiles({ file }: { file: TFileDetail }) {
  const notify = useNotify();
  const remove = useDeleteOtherFiles();
  const [chosen, setChosen] = useState<number[]>([]);
  if (file.other_files.length === 0)
    return (
      <section aria-labelledby="other-heading">
        <h2 id="other-heading">Other files</h2>
        <p className="muted">None attached.</p>
      </section>
    );
  return (
    <section aria-labelledby="other-heading">
      <h2 id="other-heading">Other files</h2>
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
            <button
              type="button"
              className="button button--link button--small"
              onClick={() =>
                callApi(contract.fileActions.downloadOtherFiles, { params: { id: a.id } }).then(
                  (r) => saveBlob(r.data, a.name),
                  (error) => notify.notifyFailure('Failed to download file', error),
                )
              }
            >
              Download
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="button button--small"
        disabled={chosen.length === 0}
        onClick={() =>
          callApi(contract.file.downloadManyOtherFiles, { body: { ids: chosen } }).then(
            (r) => saveBlob(r.data, 'selected_files.pdf'),
            (error) => notify.notifyFailure('Failed to download files', error),
          )
        }
      >
        Download chosen as one PDF
      </button>
      {file.permissions.edit ? (
        <button
          type="button"
          className="button button--ghost button--small"
          disabled={chosen.length === 0}
          onClick={() =>
            remove.mutate(chosen, {
              onSuccess: () => setChosen([]),
              onError: (error) => notify.notifyFailure('Failed to delete file', error),
            })
          }
        >
          Remove chosen
        </button>
      ) : null}
    </section>
  );
}
