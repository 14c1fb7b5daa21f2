import type { TImapSettings, TIntakeSourceInput } from '@quire/contract';
import { type MouseEvent, useState } from 'react';
import { Field, FormField, SelectField } from '../../../components/form-field';
import { useNotify } from '../../../components/notifications/notification-context';
import { PendingButton } from '../../../components/pending-button';
import { useTestInbox } from '../api/test-inbox';

// The e-mail inbox's fields on the intake source form: where to sign in, which mail to take,
// what to do with a message once taken, and "Test connection", which signs in with what is
// typed before anything is saved.

/** An inbox's settings as sent. */
export type InboxSettings = Extract<TIntakeSourceInput, { kind: 'imap' }>['settings'];

export type InboxField = 'host' | 'port' | 'user' | 'password' | 'mailbox' | 'move_to' | 'ca_certificate';
export type InboxErrors = Partial<Record<InboxField, string>>;

/** The settings typed on one line. */
type LineSetting = 'host' | 'user' | 'mailbox' | 'sender_filter' | 'subject_filter' | 'move_to';

/** The API's field paths for these fields. */
export const INBOX_FIELD_OF: Record<string, InboxField> = {
  'body.settings.host': 'host',
  'body.settings.port': 'port',
  'body.settings.user': 'user',
  'body.settings.password': 'password',
  'body.settings.mailbox': 'mailbox',
  'body.settings.move_to': 'move_to',
  'body.settings.ca_certificate': 'ca_certificate',
};

/** The inbox settings as typed (an empty password is left out: the stored one is kept). */
export function inboxSettingsOf(data: FormData): InboxSettings {
  const text = (k: string) => String(data.get(k) ?? '').trim();
  const password = String(data.get('password') ?? '');
  return {
    host: text('host'),
    port: Number(text('port') || 993),
    tls: data.get('tls') === 'on',
    user: text('user'),
    ...(password ? { password } : {}),
    mailbox: text('mailbox') || 'INBOX',
    sender_filter: text('sender_filter'),
    subject_filter: text('subject_filter'),
    after_take: text('after_take') === 'move' ? 'move' : 'mark',
    move_to: text('move_to'),
    take_message: data.get('take_message') === 'on',
    ca_certificate: text('ca_certificate'),
  };
}

/** What the form checks before sending: the fields the API would refuse empty. */
export function checkInbox(settings: InboxSettings): InboxErrors {
  const found: InboxErrors = {};
  if (!settings.host) found.host = 'Required';
  if (!settings.user) found.user = 'Required';
  const port = Number(settings.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) found.port = 'A port from 1 to 65535';
  if (settings.after_take === 'move' && !settings.move_to) found.move_to = 'Name the folder to move it to';
  return found;
}

/** `initial`: the stored inbox's settings, when an inbox is edited (its password stays unshown). */
export function InboxFields({
  errors,
  sourceId,
  initial,
}: {
  errors: InboxErrors;
  sourceId?: number;
  initial?: TImapSettings;
}) {
  const notify = useNotify();
  const test = useTestInbox();
  const [afterTake, setAfterTake] = useState<'mark' | 'move'>(initial?.after_take ?? 'mark');
  const [result, setResult] = useState('');

  const onTest = (e: MouseEvent<HTMLButtonElement>) => {
    const form = e.currentTarget.form;
    if (!form || test.isPending) return;
    const settings = inboxSettingsOf(new FormData(form));
    const found = checkInbox(settings);
    if (found.host || found.user || found.port) {
      notify.error('Please check the highlighted fields.');
      return;
    }
    setResult('');
    test.mutate(
      { ...(sourceId ? { source_id: sourceId } : {}), settings },
      {
        onSuccess: ({ data }) => {
          const line = `${data.mailbox} answered: ${data.messages} ${data.messages === 1 ? 'message' : 'messages'}${
            data.idle ? ', new mail is seen at once (IDLE)' : ', looked at every minute'
          }.`;
          setResult(line);
          notify.success('The inbox answered', line);
        },
        onError: (error) => {
          setResult('');
          notify.notifyFailure('Failed to connect to the inbox!', error);
        },
      },
    );
  };

  /** A one-line setting: its stored value shown, its error, at most 255 characters. */
  const line = (name: LineSetting, label: string, more: { hint?: string; fallback?: string } = {}) => (
    <FormField
      label={label}
      name={name}
      defaultValue={initial?.[name] ?? more.fallback}
      error={(errors as Partial<Record<LineSetting, string>>)[name]}
      maxLength={255}
      autoComplete="off"
      hint={more.hint}
    />
  );

  return (
    <>
      {line('host', 'IMAP server')}
      <FormField
        label="Port"
        name="port"
        type="number"
        min={1}
        max={65535}
        defaultValue={initial?.port ?? 993}
        error={errors.port}
      />
      <label className="checkbox">
        <input type="checkbox" name="tls" defaultChecked={initial?.tls ?? true} /> TLS from the start (port
        993); otherwise STARTTLS when the server offers it
      </label>
      <Field
        label={
          <>
            CA certificate <span className="muted">(optional)</span>
          </>
        }
        error={errors.ca_certificate}
        hint="PEM, for a server whose certificate your company signs itself. Empty: the system's trust only."
      >
        {(control) => (
          <textarea
            {...control}
            name="ca_certificate"
            rows={3}
            spellCheck={false}
            defaultValue={initial?.ca_certificate ?? ''}
            placeholder="-----BEGIN CERTIFICATE-----"
          />
        )}
      </Field>
      {line('user', 'User name')}
      <FormField
        label="Password"
        name="password"
        type="password"
        error={errors.password}
        autoComplete="new-password"
        hint={sourceId ? 'Leave empty to keep the stored password.' : 'Kept encrypted; never shown again.'}
      />
      {line('mailbox', 'Mailbox', { fallback: 'INBOX' })}
      {line('sender_filter', 'Only from senders containing', { hint: 'Empty: any sender.' })}
      {line('subject_filter', 'Only subjects containing', { hint: 'Empty: any subject.' })}
      <SelectField
        label="After taking a message"
        name="after_take"
        value={afterTake}
        onChange={(e) => setAfterTake(e.target.value === 'move' ? 'move' : 'mark')}
      >
        <option value="mark">Mark it read</option>
        <option value="move">Move it to a folder</option>
      </SelectField>
      {afterTake === 'move' ? line('move_to', 'Move it to') : null}
      <label className="checkbox">
        <input type="checkbox" name="take_message" defaultChecked={initial?.take_message ?? false} /> Keep the
        message itself too (.eml)
      </label>
      <div className="field">
        <PendingButton
          type="button"
          variant="ghost"
          pending={test.isPending}
          pendingLabel="Testing…"
          onClick={onTest}
        >
          Test connection
        </PendingButton>
        <p role="status" className="hint">
          {result}
        </p>
      </div>
    </>
  );
}
