import { contract, type TFileDetail } from '@quire/contract';
import { useState } from 'react';
import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import { callApi } from '../../../lib/api-client';
import { saveBlob } from '../../../lib/save-blob';

/**
 * The file's history: every change (values, name, category, permissions, other files,
 * versions, lock and check-out) is recorded, and the record export lists them with its values
 * and versions (GET /api/export-files-main/{id}, an .xlsx).
 */
export function FileHistory({ file }: { file: TFileDetail }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      <p className="muted">
        Every change to this file is recorded: its values, name, category, permissions, other files, versions,
        lock and check-out.
      </p>
      <PendingButton
        type="button"
        variant="ghost"
        pending={busy}
        pendingLabel="Preparing the record…"
        onClick={() => {
          setBusy(true);
          callApi(contract.fileActions.exportFilesMain, { params: { id: file.id } })
            .then(
              (r) => {
                saveBlob(r.data, `${file.name} record.xlsx`);
                notify.success('Record downloaded', 'Its Activity sheet lists every change.');
              },
              (error) => notify.notifyFailure('Failed to export file record!', error),
            )
            .finally(() => setBusy(false));
        }}
      >
        Download the record with its history (.xlsx)
      </PendingButton>
    </section>
  );
}
