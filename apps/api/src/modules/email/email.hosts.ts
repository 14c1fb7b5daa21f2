import { connectAddress } from '../../lib/private-hosts.js';

// Where Quire may send mail: the private-network policy of lib/private-hosts.ts, unless the
// operator allows it (SMTP_ALLOW_PRIVATE_HOSTS); the connection goes to the checked address.

/** A host refused as an SMTP target; its message is safe to store and show. */
export class SmtpHostRefused extends Error {
  override name = 'SmtpHostRefused';
}

export const PRIVATE_HOST_MESSAGE =
  'This host is on this machine or a private network, where Quire does not send mail unless the server is started with SMTP_ALLOW_PRIVATE_HOSTS=true';

/**
 * The address to connect to for a delivery: `host` itself when private targets are allowed;
 * otherwise its first address, after checking that none is private.
 */
export async function deliveryAddress(host: string, allowPrivate: boolean): Promise<string> {
  const checked = await connectAddress(host, allowPrivate);
  if ('address' in checked) return checked.address;
  throw new SmtpHostRefused(
    checked.refused === 'not_found' ? 'The SMTP host name could not be found' : PRIVATE_HOST_MESSAGE,
  );
}
