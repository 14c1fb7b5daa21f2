import { zodResolver } from '@hookform/resolvers/zod';
import { type TLegalHold, ZReason } from '@quire/contract';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Dialog } from '../../../components/dialog';
import { DialogActions } from '../../../components/dialog-actions';
import { Field } from '../../../components/form-field';
import { withEmptyMessages } from '../../../lib/form';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { useReleaseLegalHold } from '../api/legal-holds';

const ZRelease = z.object({ reason: ZReason });
const resolver = withEmptyMessages(zodResolver(ZRelease), { reason: 'Say why it is released' });

/** Releases a hold; the reason goes into the audit trail. */
export function ReleaseHoldDialog({ hold, onClose }: { hold: TLegalHold; onClose: () => void }) {
  const release = useReleaseLegalHold();
  const form = useForm<z.input<typeof ZRelease>, unknown, z.output<typeof ZRelease>>({
    resolver,
    defaultValues: { reason: '' },
  });
  const error = form.formState.errors.reason?.message;
  const onSubmit = useFormSubmit(form, release, {
    fields: ['reason'],
    failure: 'Failed to release legal hold!',
    body: ({ reason }) => ({ id: hold.id, reason }),
    told: () => ['Legal hold released', `${hold.target_name} may be changed and deleted again.`],
    onDone: onClose,
    whilePending: 'ignore',
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
