import type { TDisposition } from '@quire/contract';
import { useState } from 'react';
import { ConfirmMutationDialog } from '../../../components/confirm-mutation-dialog';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { Field } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { useDecideDispositions } from '../api/dispositions';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "Approve?" with what it will do: purges named as for good; confirmed before it runs. */
interface DecideProps {
  items: TDisposition[];
  onClose: () => void;
  /** After the decision went through (the choice is cleared). */
  onDone: () => void;
}

export function ApproveDialog({ items, onClose, onDone }: DecideProps) {
  const decide = useDecideDispositions();
  const purges = items.filter((d) => d.action === 'purge').length;
  const trashes = items.filter((d) => d.action === 'trash').length;
  const reviews = items.length - purges - trashes;
  const what = [
    purges ? `${count(purges, 'file is', 'files are')} deleted for good` : null,
    trashes ? `${count(trashes, 'file is', 'files are')} moved to the trash` : null,
    reviews ? `${count(reviews, 'review is', 'reviews are')} recorded (the files are kept)` : null,
  ].filter(Boolean);
  const single = items.length === 1 ? items[0] : undefined;
  return (
    <ConfirmMutationDialog
      title={
        single ? `Approve the disposition of ${single.file.name}?` : `Approve ${items.length} dispositions?`
      }
      confirmLabel={purges ? 'Approve and purge' : 'Approve'}
      tone={purges ? 'danger' : 'default'}
      mutation={decide}
      value={{ ids: items.map((d) => d.id), decision: 'approve' as const }}
      success={['Dispositions approved', `${what.join('; ')}.`]}
      failure="Failed to approve dispositions!"
      onDone={onDone}
      onClose={onClose}
    >
      {what.join('; ')}.{purges ? ' A purge cannot be undone.' : ''}
    </ConfirmMutationDialog>
  );
}

/** Postpones by a number of days, asked for. */
export function PostponeDialog({ items, onClose, onDone }: DecideProps) {
  const notify = useNotify();
  const decide = useDecideDispositions();
  const [days, setDays] = useState('30');
  const [error, setError] = useState<string | undefined>();
  const single = items.length === 1 ? items[0] : undefined;
  return (
    <Dialog
      title={
        single ? `Postpone the disposition of ${single.file.name}` : `Postpone ${items.length} dispositions`
      }
      onClose={onClose}
      busy={decide.isPending}
      size="small"
    >
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const n = Number(days);
          if (!Number.isInteger(n) || n < 1 || n > 3650) {
            setError('Give a number of days from 1 to 3650');
            return;
          }
          decide.mutate(
            { ids: items.map((d) => d.id), decision: 'postpone', postpone_days: n },
            {
              onSuccess: () => {
                notify.success('Dispositions postponed', `Listed again in ${count(n, 'day', 'days')}.`);
                onDone();
                onClose();
              },
              onError: (err) => notify.notifyFailure('Failed to postpone dispositions!', err),
            },
          );
        }}
      >
        <Field label="Postpone by (days)" error={error}>
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              max={3650}
              inputMode="numeric"
              value={days}
              onChange={(e) => {
                setDays(e.target.value);
                setError(undefined);
              }}
            />
          )}
        </Field>
        <DialogActions onCancel={onClose} pending={decide.isPending} pendingLabel="Postponing…">
          Postpone
        </DialogActions>
      </form>
    </Dialog>
  );
}
