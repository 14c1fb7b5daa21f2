import { zodResolver } from '@hookform/resolvers/zod';
import { type TLegalHold, ZReason } from '@quire/contract';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { Field } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { setServerErrors, withEmptyMessages } from '../../../lib/form';
import { useReleaseLegalHold } from '../api/legal-holds';

const ZRelease = z.object({ reason: ZReason });
const resolver = withEmptyMessages(zodResolver(ZRelease), { reason: 'Say why it is released' });

/** Releases a hold; the reason goes into the audit trail. */
export function ReleaseHoldDialog({ hold, onClose }: { hold: TLegalHold; onClose: () => void }) {
  const notify = useNotify();
  const release = useReleaseLegalHold();
  const form = useForm<z.input<typeof ZRelease>, unknown, z.output<typeof ZRelease>>({
    resolver,
    defaultValues: { reason: '' },
  });
  const error = form.formState.errors.reason?.message;
  const onSubmit = form.handleSubmit(({ reason }) => {
    if (release.isPending) return;
    release.mutate(
      { id: hold.id, reason },
      {
        onSuccess: () => {
          notify.success('Legal hold released', `${hold.target_name} may be changed and deleted again.`);
          onClose();
        },
        onError: (e) => {
          setServerErrors(form, e, ['reason']);
          notify.notifyFailure('Failed to release legal hold!', e);
        },
      },
    );
  });
  return (
    <Dialog
      title={`Release the hold on ${hold.target_name}?`}
      onClose={onClose}
      busy={release.isPending}
      size="small"
    >
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={release.isPending}>
        <p>Held because: {hold.reason}</p>
        <Field label="Why is it released?" error={error}>
          {(control) => <textarea {...control} rows={2} autoFocus {...form.register('reason')} />}
        </Field>
        <DialogActions
          onCancel={onClose}
          pending={release.isPending}
          pendingLabel="Releasing…"
          variant="danger"
        >
          Release hold
        </DialogActions>
      </form>
    </Dialog>
  );
}
