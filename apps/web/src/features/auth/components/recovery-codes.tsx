import { Button } from '../../../components/button';
import { useNotify } from '../../../components/notifications/notification-context';

export const RECOVERY_CODES_FILE = 'quire-recovery-codes.txt';

/**
 * Recovery codes just issued, shown this once: each signs in once when the authenticator app
 * is not at hand. Copy or download them before leaving.
 */
export function RecoveryCodes({ codes, children }: { codes: string[]; children?: React.ReactNode }) {
  const notify = useNotify();
  const text = `${codes.join('\n')}\n`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      notify.success('Recovery codes copied', 'Keep them somewhere safe, away from your phone.');
    } catch (error) {
      notify.notifyFailure('Failed to copy the recovery codes', error);
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = RECOVERY_CODES_FILE;
    link.click();
    URL.revokeObjectURL(url);
  }

  return (
    <section className="recovery-codes" aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title">Your recovery codes</h3>
      <p className="muted">
        If you lose your phone, each of these codes signs you in once instead of a code from the app. They are
        shown only now: copy or download them and keep them somewhere safe.
      </p>
      <ul className="recovery-codes__list" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="form-actions">
        <Button variant="ghost" onClick={copy}>
          Copy codes
        </Button>
        <Button variant="ghost" onClick={download}>
          Download codes
        </Button>
        {children}
      </div>
    </section>
  );
}
