// pnpm licence:issue --key vendor-private.pem --licensee "Acme Ltd" --seats 50 --expires 2027-12-31
//   [--starts 2026-01-01] [--features workflows,ldap] [--id ACME-2026] [--out acme.licence]
//
// Signs a licence with the vendor's ed25519 private key and prints it (or writes it to
// --out). The private key stays with the vendor: never commit it. Make one with
//   openssl genpkey -algorithm ed25519 -out vendor-private.pem
// and ship its public key (openssl pkey -in vendor-private.pem -pubout) as LICENCE_PUBLIC_KEY
// or in licence.document.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { signLicence } from '../src/modules/licence/licence.document.js';

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    key: { type: 'string' },
    licensee: { type: 'string' },
    seats: { type: 'string' },
    starts: { type: 'string' },
    expires: { type: 'string' },
    features: { type: 'string', default: '' },
    id: { type: 'string' },
    out: { type: 'string' },
  },
});

if (!values.key) fail('--key: the vendor private key file (PEM) is required');
if (!values.licensee) fail('--licensee: the company the licence is for is required');
const seats = Number(values.seats);
if (!Number.isInteger(seats) || seats < 1) fail('--seats: a whole number of at least 1 is required');
const date = (value: string | undefined, name: string, fallback?: Date) => {
  if (!value) {
    if (fallback) return fallback.toISOString();
    fail(`--${name}: a date (YYYY-MM-DD) is required`);
  }
  const d = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T23:59:59.000Z` : value);
  if (Number.isNaN(d.getTime())) fail(`--${name}: not a date: ${value}`);
  return d.toISOString();
};
const startsAt = values.starts ? new Date(`${values.starts.slice(0, 10)}T00:00:00.000Z`) : new Date();

let licence: string;
try {
  licence = signLicence(
    {
      v: 1,
      ...(values.id ? { id: values.id } : {}),
      licensee: values.licensee,
      seats,
      starts_at: startsAt.toISOString(),
      expires_at: date(values.expires, 'expires'),
      features: values.features
        .split(',')
        .map((f) => f.trim())
        .filter(Boolean),
    },
    readFileSync(values.key, 'utf8'),
  );
} catch (err) {
  fail(`Could not sign the licence: ${(err as Error).message}`);
}
if (values.out) {
  writeFileSync(values.out, `${licence}\n`);
  console.info(`Licence written to ${values.out}`);
} else {
  console.info(licence);
}
