import { ZEmailTestBody } from '@quire/contract';
import { type FormEvent, useId, useState } from 'react';
import { useNotify } from '../../../components/notifications/notification-context';
import { errorMessage } from '../../../lib/error-message';
import { apiFieldErrors } from '../../../lib/field-errors';
import { useSendTestEmail } from '../api/send-test-email';
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
  const [to, setTo] = useState(defaultTo);
  const [error, setError] = useState<string>();
  const [outcome, setOutcome] = useState<Outcome>(null);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (send.isPending || !configured) return;
    const parsed = ZEmailTestBody.safeParse({ to });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message);
      event.currentTarget.querySelector<HTMLInputElement>('input')?.focus();
      return;
    }
    setError(undefined);
    setOutcome(null);
    send.mutate(parsed.data.to, {
      onSuccess: (result) => {
        const said = result.response ? ` The server said: ${result.response}` : '';
        setOutcome({ ok: true, text: `Sent to ${parsed.data.to}.${said}` });
        notify.success('Test e-mail sent', `The SMTP server accepted the message for ${parsed.data.to}.`);
      },
      onError: (e) => {
        setError(apiFieldErrors(e).to);
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
  }

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-busy={send.isPending}>
      <div className="toolbar">
        <div className="field field--grow">
          <label htmlFor={`${id}-to`}>Send a test message to</label>
          <input
            id={`${id}-to`}
            name="to"
            type="email"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            disabled={!configured}
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
