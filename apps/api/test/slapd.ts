import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { selfSignedCertificate, waitForPort } from './local-servers.js';

// A private OpenLDAP server for tests: Debian's slapd (apt-get install slapd ldap-utils),
// started as the current user from a temp folder on free loopback ports, with a seeded
// directory and a self-signed certificate (ldaps://, and StartTLS on ldap://). Never the
// system slapd service.

export const BASE_DN = 'dc=quire,dc=test';
export const READER_DN = `cn=reader,${BASE_DN}`;
export const READER_PASSWORD = 'Reader-Pass-2026';
export const DIRECTORY_PASSWORDS = {
  alice: 'Alice-Directory-Pass-1',
  bob: 'Bob-Directory-Pass-2',
  carol: 'Carol-Directory-Pass-3',
};
/** The password of a person added by `addPeople`. */
export const directoryPassword = (uid: string) => `${uid}-Directory-Pass`;
export const ADMINS_GROUP = `cn=quire-admins,ou=groups,${BASE_DN}`;
export const STAFF_GROUP = `cn=quire-staff,ou=groups,${BASE_DN}`;

const ROOT_DN = `cn=admin,${BASE_DN}`;
const ROOT_PASSWORD = `${READER_PASSWORD}-root`;

const person = (uid: string, given: string, sn: string, password: string) => `
dn: uid=${uid},ou=people,${BASE_DN}
objectClass: inetOrgPerson
uid: ${uid}
cn: ${given} ${sn}
givenName: ${given}
sn: ${sn}
mail: ${uid}@quire.test
userPassword: ${password}
`;

const SEED = `dn: ${BASE_DN}
objectClass: dcObject
objectClass: organization
o: Quire Test
dc: quire

dn: ou=people,${BASE_DN}
objectClass: organizationalUnit
ou: people

dn: ou=groups,${BASE_DN}
objectClass: organizationalUnit
ou: groups

dn: ${READER_DN}
objectClass: organizationalRole
objectClass: simpleSecurityObject
cn: reader
userPassword: ${READER_PASSWORD}
${person('alice', 'Alice', 'Archer', DIRECTORY_PASSWORDS.alice)}${person('bob', 'Bob', 'Baker', DIRECTORY_PASSWORDS.bob)}${person('carol', 'Carol', 'Cooper', DIRECTORY_PASSWORDS.carol)}
dn: ${ADMINS_GROUP}
objectClass: groupOfNames
cn: quire-admins
member: uid=alice,ou=people,${BASE_DN}

dn: ${STAFF_GROUP}
objectClass: groupOfNames
cn: quire-staff
member: uid=alice,ou=people,${BASE_DN}
member: uid=bob,ou=people,${BASE_DN}
`;

/** A loopback port nobody listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface TestDirectory {
  /** ldap://127.0.0.1:port (StartTLS available). */
  url: string;
  /** ldaps://127.0.0.1:port. */
  ldapsUrl: string;
  /** The self-signed certificate the server presents (its own CA). */
  caPem: string;
  /**
   * Adds people (`uid`, password `directoryPassword(uid)`) and a directory group of them,
   * `cn=<group>,ou=groups` (its DN returned), as the directory's administrator.
   */
  addPeople(uids: string[], group: string): string;
  stop(): Promise<void>;
}

export async function startTestDirectory(): Promise<TestDirectory> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'quire-slapd-'));
  const db = path.join(dir, 'db');
  execFileSync('mkdir', ['-p', db]);
  const { cert, key } = selfSignedCertificate(dir);
  const conf = path.join(dir, 'slapd.conf');
  await writeFile(
    conf,
    `include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
modulepath /usr/lib/ldap
moduleload back_mdb
pidfile ${dir}/slapd.pid
TLSCertificateFile ${cert}
TLSCertificateKeyFile ${key}
database mdb
suffix "${BASE_DN}"
rootdn "${ROOT_DN}"
rootpw ${ROOT_PASSWORD}
directory ${db}
maxsize 10485760
access to attrs=userPassword by self read by anonymous auth by * none
access to * by users read by anonymous auth by * none
`,
  );
  const seed = path.join(dir, 'seed.ldif');
  await writeFile(seed, SEED);
  execFileSync('slapadd', ['-f', conf, '-l', seed], { stdio: 'pipe' });
  const [port, tlsPort] = [await freePort(), await freePort()];
  let output = '';
  const child = spawn(
    'slapd',
    ['-f', conf, '-h', `ldap://127.0.0.1:${port}/ ldaps://127.0.0.1:${tlsPort}/`, '-d', '0'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  await waitForPort(port, child, 'slapd', () => output);
  await waitForPort(tlsPort, child, 'slapd', () => output);
  const { readFileSync } = await import('node:fs');
  return {
    url: `ldap://127.0.0.1:${port}`,
    ldapsUrl: `ldaps://127.0.0.1:${tlsPort}`,
    caPem: readFileSync(cert, 'utf8'),
    addPeople(uids, group) {
      const dn = `cn=${group},ou=groups,${BASE_DN}`;
      const members = uids.map((uid) => `member: uid=${uid},ou=people,${BASE_DN}`).join('\n');
      const ldif = `${uids.map((uid) => person(uid, uid, 'Directory', directoryPassword(uid))).join('')}
dn: ${dn}
objectClass: groupOfNames
cn: ${group}
${members}
`;
      execFileSync('ldapadd', ['-x', '-H', `ldap://127.0.0.1:${port}`, '-D', ROOT_DN, '-w', ROOT_PASSWORD], {
        input: ldif,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      return dn;
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
