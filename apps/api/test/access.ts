import type { AccessType, LoginRole } from '@quire/contract';
import type { InjectOptions } from 'fastify';
import { expect } from 'vitest';
import type { TestContext } from './app.js';
import { bearer, createUser, loginAs } from './factories.js';

// The one table every area's access test walks: who may call a Settings or File Control
// call, and what each caller must get. A refused write must leave `snapshot()` unchanged.

export interface AccessCase {
  name: string;
  write: boolean;
  /** A read any signed-in person may make (the answer is filtered to what they may see). */
  signedIn?: boolean;
  /** Builds the request (it may create the row it acts on). */
  make: () => Promise<InjectOptions> | InjectOptions;
}

/** A read of `url`, named after the call; `signedIn`: one everyone signed in may make. */
export const readCase = (url: string, signedIn = false): AccessCase => ({
  name: `GET ${url}`,
  write: false,
  ...(signedIn ? { signedIn } : {}),
  make: () => ({ method: 'GET', url }),
});

/**
 * A read named after the call (`'GET /api/get_step/{id}'`) whose request `make` builds (it may
 * create the row it reads); `signedIn`: one everyone signed in may make.
 */
export const readCaseOf = (name: string, make: AccessCase['make'], signedIn = false): AccessCase => ({
  name,
  write: false,
  ...(signedIn ? { signedIn } : {}),
  make,
});

/** A write named after the call (`'POST /api/create_group'`); `make` builds the request. */
export const writeCase = (name: string, make: AccessCase['make']): AccessCase => ({
  name,
  write: true,
  make,
});

export type Caller = [
  label: string,
  accessType: AccessType | null,
  role: LoginRole,
  expect: (write: boolean, signedIn: boolean) => number,
];

/** What one outside the area gets: the reads for everyone signed in, nothing else. */
const signedInReadsOnly = (write: boolean, signedIn: boolean) => (!write && signedIn ? 200 : 403);

/** Settings calls; reads marked `signedIn` are for everyone signed in. */
export const SETTINGS_CALLERS: Caller[] = [
  ['anonymous', null, 'admin', () => 401],
  ['General staff', 'General staff', 'user', signedInReadsOnly],
  ['File Control Admin', 'File Control Admin', 'admin', signedInReadsOnly],
  ['a Company Admin signed in as user', 'COMPANY ADMIN', 'user', signedInReadsOnly],
  ['Auditor', 'Auditor', 'admin', (write) => (write ? 403 : 200)],
  ['User Administration Admin', 'User Administration Admin', 'admin', () => 200],
  ['Company Admin', 'COMPANY ADMIN', 'admin', () => 200],
];

/**
 * File Control calls: writes for File Control writers signed in as admin (File Control Admin,
 * Company Admin), reads for the Auditor too; reads marked `signedIn` for everyone signed in.
 */
export const FILE_CONTROL_CALLERS: Caller[] = [
  ['anonymous', null, 'admin', () => 401],
  ['General staff', 'General staff', 'user', signedInReadsOnly],
  ['Auditor', 'Auditor', 'admin', (write) => (write ? 403 : 200)],
  ['User Administration Admin', 'User Administration Admin', 'admin', signedInReadsOnly],
  ['a Company Admin signed in as user', 'COMPANY ADMIN', 'user', signedInReadsOnly],
  ['File Control Admin', 'File Control Admin', 'admin', () => 200],
  ['Company Admin', 'COMPANY ADMIN', 'admin', () => 200],
];

/**
 * Settings calls whose writes are the Company Admin's alone: each other caller, with the
 * status its reads and its writes get.
 */
export const COMPANY_ADMIN_WRITES = [
  ['anonymous', null, 'admin', 401, 401],
  ['General staff', 'General staff', 'user', 403, 403],
  ['File Control Admin', 'File Control Admin', 'admin', 403, 403],
  ['Auditor', 'Auditor', 'admin', 200, 403],
  ['User Administration Admin', 'User Administration Admin', 'admin', 200, 403],
] as const;

/** `app.inject` with the bearer token, when there is one. */
export function callAs(t: TestContext, token: string | null, opts: InjectOptions) {
  return t.app.inject({ ...opts, headers: { ...(opts.headers ?? {}), ...(token ? bearer(token) : {}) } });
}

/** A new person of `accessType`, signed in as `role`: their bearer token (null: anonymous). */
export async function callerToken(t: TestContext, accessType: AccessType | null, role: LoginRole) {
  return accessType ? loginAs(t.app, await createUser(t.db, { accessType }), role) : null;
}

/** Signs in a new user of the caller's access type and walks every case. */
export async function expectAccess(
  t: TestContext,
  caller: Caller,
  cases: AccessCase[],
  snapshot: () => Promise<unknown>,
): Promise<void> {
  const [, accessType, role, expected] = caller;
  const token = await callerToken(t, accessType, role);
  for (const c of cases) {
    const opts = await c.make();
    const before = await snapshot();
    const res = await callAs(t, token, opts);
    const want = expected(c.write, c.signedIn ?? false);
    expect(`${c.name} ${res.statusCode}`).toBe(`${c.name} ${want}`);
    if (want !== 200 && c.write) expect(await snapshot()).toEqual(before);
  }
}
