import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

// Hosts Quire connects to on an admin's say-so (the SMTP server, the LDAP directory): never,
// unless the operator allows it (SMTP_ALLOW_PRIVATE_HOSTS, LDAP_ALLOW_PRIVATE_HOSTS), this
// machine, a link-local address or a private network. Otherwise a Settings writer could point
// them at internal services and read what answers. Addresses are checked as the resolver reads
// them, so numeric forms (2130706433, 0x7f000001, 127.1) and names that resolve there are
// caught too.

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** Whether an address (as the resolver returns it) is loopback, link-local, private or reserved. */
function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return blocked.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return true;
}

export const bare = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

/** The addresses `host` stands for (an address stands for itself); [] when it does not resolve. */
async function resolveHost(host: string, timeoutMs = 5000): Promise<string[]> {
  const name = bare(host);
  let timer: NodeJS.Timeout | undefined;
  try {
    const found = await Promise.race([
      lookup(name, { all: true, verbatim: true }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), timeoutMs);
      }),
    ]);
    return found.map((a) => a.address);
  } catch {
    return [];
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Checks a host before it is saved: refused (true) when it is, or resolves to, a private
 * address. A name that does not resolve now is allowed: it is checked again at each delivery.
 */
export async function isPrivateHost(host: string): Promise<boolean> {
  const name = bare(host).toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return (await resolveHost(host)).some(isPrivateAddress);
}

/**
 * The address to connect to for an admin-named host (SMTP, IMAP): `host` itself when private
 * targets are allowed; otherwise its first address, after checking that none is private, so
 * the connection goes to the address that was checked (no second lookup that could answer
 * otherwise). Refused: the name does not resolve, or it is on this machine or a private network.
 */
export async function connectAddress(
  host: string,
  allowPrivate: boolean,
): Promise<{ address: string } | { refused: 'not_found' | 'private' }> {
  if (allowPrivate) return { address: bare(host) };
  const addresses = await resolveHost(host);
  if (addresses.length === 0) return { refused: 'not_found' };
  if (addresses.some(isPrivateAddress)) return { refused: 'private' };
  return { address: addresses[0]! };
}
