import { type FormEventHandler, type ReactNode, useId } from 'react';
import { PendingButton } from './pending-button';

/**
 * A card that is one form, shown to all who read its area: its heading, the fields (disabled
 * for one who may only read), then the submit button ("Saving…" while it runs) for one who
 * may write.
 */
export function CardForm({
  title,
  onSubmit,
  pending,
  canWrite,
  submitLabel,
  fieldsetClassName = 'plain-fieldset',
  children,
}: {
  title: string;
  onSubmit: FormEventHandler<HTMLFormElement>;
  pending: boolean;
  canWrite: boolean;
  submitLabel: string;
  fieldsetClassName?: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section className="card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={pending}>
        <fieldset disabled={!canWrite} className={fieldsetClassName}>
          {children}
        </fieldset>
        {canWrite ? (
          <div className="form-actions">
            <PendingButton pending={pending} pendingLabel="Saving…">
              {submitLabel}
            </PendingButton>
          </div>
        ) : null}
      </form>
    </section>
  );
}
