import { type ChildProcess, execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import path from 'node:path';

// Pieces shared by the tests' private servers (slapd.ts, dovecot.ts): each runs from a temp
// folder as the current user on a free loopback port.

/**
 * Resolves once something accepts connections on 127.0.0.1:`port`; rejects when `child` (the
 * server a test started) exits first or after `timeoutMs`, with `name` and what it printed.
 */
export function waitForPort(
  port: number,
  child: ChildProcess,
  name: string,
  log: () => string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      if (child.exitCode !== null) return reject(new Error(`${name} exited: ${log()}`));
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`${name} did not listen on ${port}: ${log()}`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}

/**
 * A self-signed certificate for 127.0.0.1 and localhost (its own CA), valid two days, written
 * with openssl into `dir` as cert.pem and key.pem.
 */
export function selfSignedCertificate(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}
