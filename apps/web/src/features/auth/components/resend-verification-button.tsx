import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import { useResendVerification } from '../api/resend-verification';

/** After registering, and on a failed verification: send the link again. */
export function ResendVerificationButton({ email, disabled }: { email: string; disabled?: boolean }) {
  const notify = useNotify();
  const resend = useResendVerification();
  return (
    <PendingButton
      type="button"
      variant="ghost"
      pending={resend.isPending}
      pendingLabel="Sending…"
      disabled={disabled}
      onClick={() =>
        resend.mutate(email, {
          onSuccess: (result) =>
            notify.success('Verification e-mail sent', result.message ?? `We sent a new link to ${email}.`),
          onError: (error) => notify.notifyFailure('Failed to resend the verification e-mail', error),
        })
      }
    >
      Resend the e-mail
    </PendingButton>
  );
}
