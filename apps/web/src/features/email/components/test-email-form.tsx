import { zodResolver } from '@hookform/resolvers/zod';
import { ZEmailTestBody } from '@quire/contract';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { useNotify } from '../../../components/notifications/notification-context';
import { errorMessage } from '../../../lib/error-message';
import { setServerErrors } from '../../../lib/form';
import { useSendTestEmail } from '../api/mail-queue';
import { explainSmtpError, type SmtpTarget } from '../lib/smtp-error';

/** What happened; `detail`: the raw text behind an explained SMTP failure. */
type Outcome = { ok: boolean; text: string; detail?: string } | null;

/** Sends one message through the saved settings now, and shows what the SMTP server said. */
export function TestEmailForm({
  configured,
  defaultTo,
  target = {},
}: {
  configured: boolean;
  defaultTo: string;
  /** The saved server, to name it in an error. */
  target?: SmtpTarget;
}) {
  const id = useId();
  const notify = useNotify();
  const send = useSendTestEmail();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const form = useForm<z.input<typeof ZEmailTestBody>, unknown, z.output<typeof ZEmailTestBody>>({
    resolver: zodResolver(ZEmailTestBody),
    defaultValues: { to: defaultTo },
  });
  const error = form.formState.errors.to?.message;

  const onSubmit = form.handleSubmit(({ to }) => {
    if (send.isPending || !configured) return;
    setOutcome(null);
    send.mutate(to, {
      onSuccess: (result) => {
        const said = result.response ? ` The server said: ${result.response}` : '';
        setOutcome({ ok: true, text: `Sent to ${to}.${said}` });
        notify.success('Test e-mail sent', `The SMTP server accepted the message for ${to}.`);
      },
      onError: (e) => {
        setServerErrors(form, e, ['to']);
        const explained = explainSmtpError(errorMessage(e), target);
        if (explained) {
          setOutcome({ ok: false, text: explained.summary, detail: explained.detail });
          notify.error('Failed to send test e-mail', explained.summary);
        } else {
          setOutcome({ ok: false, text: errorMessage(e) });
          notify.notifyFailure('Failed to send test e-mail', e);
        }
      },
    });
  });

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-busy={send.isPending}>
      <div className="toolbar">
        <div className="field field--grow">
          <label htmlFor={`${id}-to`}>Send a test message to</label>
          <input
            id={`${id}-to`}
            type="email"
            disabled={!configured}
            {...form.register('to')}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-to-error` : configured ? undefined : `${id}-to-hint`}
          />
        </div>
        <button type="submit" className="button button--ghost" disabled={!configured || send.isPending}>
          {send.isPending ? (
            <>
              <span className="spinner" aria-hidden="true" /> Sending…
            </>
          ) : (
            'Send test e-mail'
          )}
        </button>
      </div>
      {error ? (
        <p className="field__error" id={`${id}-to-error`}>
          {error}
        </p>
      ) : null}
      {configured ? null : (
        <p className="field__hint" id={`${id}-to-hint`}>
          Save the SMTP settings first.
        </p>
      )}
      {outcome ? (
        <div
          className={`alert ${outcome.ok ? 'alert--success' : 'alert--error'}`}
          role={outcome.ok ? 'status' : 'alert'}
        >
          <span>{outcome.text}</span>
          {outcome.detail ? <p className="alert__detail">Details: {outcome.detail}</p> : null}
        </div>
      ) : null}
    </form>
  );
}
