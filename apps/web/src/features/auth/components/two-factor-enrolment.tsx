import { Button } from '../../../components/button';
import { useNotify } from '../../../components/notifications/notification-context';

/** The QR code to scan, and the same secret as a key to type in by hand. */
export function TwoFactorEnrolment({ qrCode, secret }: { qrCode: string; secret: string }) {
  const notify = useNotify();

  async function copy() {
    try {
      await navigator.clipboard.writeText(secret);
      notify.success('Key copied', 'Paste it into your authenticator app.');
    } catch (error) {
      notify.notifyFailure('Failed to copy the key', error);
    }
  }

  return (
    <div className="enrolment">
      <ol className="enrolment__steps">
        <li>Open an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password…).</li>
        <li>Scan this QR code, or enter the key below by hand.</li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <img
        className="enrolment__qr"
        src={qrCode}
        alt="QR code to scan with your authenticator app"
        width={200}
        height={200}
      />
      <div className="enrolment__key">
        <span className="enrolment__key-label">Manual key</span>
        <code className="enrolment__key-value" data-testid="manual-key">
          {secret}
        </code>
        <Button variant="ghost" small onClick={copy}>
          Copy key
        </Button>
      </div>
    </div>
  );
}
