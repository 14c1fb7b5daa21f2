import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { FormField } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import { ApiError } from '../../../lib/api-error';
import { apiFieldErrors } from '../../../lib/field-errors';
import { checkResolver } from '../../../lib/form';

export type CodeOrPassword = { code: string } | { password: string };

/**
 * A dialog that asks for a current authenticator code, or the password instead, before a
 * change of the person's own sign-in security (turning 2FA off, new recovery codes). The
 * server's verdict shows at the field; `failure` titles the toast.
 */
export function CodeOrPasswordDialog<T>({
  title,
  description,
  submitLabel,
  pendingLabel,
  danger = false,
  failure,
  mutate,
  pending,
  onDone,
  onClose,
}: {
  title: string;
  description: string;
  submitLabel: string;
  pendingLabel: string;
  danger?: boolean;
  failure: string;
  mutate: (
    body: CodeOrPassword,
    handlers: { onSuccess: (data: T) => void; onError: (e: unknown) => void },
  ) => void;
  pending: boolean;
  onDone: (data: T) => void;
  onClose: () => void;
}) {
  const notify = useNotify();
  const [method, setMethod] = useState<'code' | 'password'>('code');
  const form = useForm<{ value: string }>({
    defaultValues: { value: '' },
    resolver: checkResolver(({ value }) => ({
      value:
        method === 'code'
          ? /^\d{6}$/.test(value.replace(/\s+/g, ''))
            ? undefined
            : 'Enter the 6-digit code from your authenticator app'
          : value === ''
            ? 'Enter your password'
            : undefined,
    })),
  });
  const error = form.formState.errors.value?.message;

  const onSubmit = form.handleSubmit(({ value }) => {
    if (pending) return;
    const entered = method === 'code' ? value.replace(/\s+/g, '') : value;
    mutate(method === 'code' ? { code: entered } : { password: entered }, {
      onSuccess: onDone,
      onError: (err) => {
        const fields = apiFieldErrors(err, ['code', 'password'] as const);
        form.setError(
          'value',
          {
            type: 'server',
            message: fields[method] ?? (err instanceof ApiError ? err.serverMessage : undefined),
          },
          { shouldFocus: true },
        );
        notify.notifyFailure(failure, err);
      },
    });
  });

  return (
    <Dialog title={title} description={description} onClose={onClose} busy={pending} size="small">
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={pending}>
        {method === 'code' ? (
          <FormField
            key="code"
            label="Verification code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={7}
            error={error}
            hint="Confirm with the code your authenticator app shows now."
            {...form.register('value')}
          />
        ) : (
          <FormField
            key="password"
            label="Password"
            type="password"
            autoComplete="current-password"
            error={error}
            hint="Confirm with your account password."
            {...form.register('value')}
          />
        )}
        <div>
          <Button
            variant="link"
            onClick={() => {
              setMethod((m) => (m === 'code' ? 'password' : 'code'));
              form.reset({ value: '' });
            }}
          >
            {method === 'code' ? 'Use your password instead' : 'Use a code instead'}
          </Button>
        </div>
        <div className="dialog__actions">
          <Button variant="ghost" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <PendingButton
            {...(danger ? { variant: 'danger' as const } : {})}
            pending={pending}
            pendingLabel={pendingLabel}
          >
            {submitLabel}
          </PendingButton>
        </div>
      </form>
    </Dialog>
  );
}
