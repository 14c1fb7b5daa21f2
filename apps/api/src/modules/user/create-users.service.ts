import {
  ACCESS_TYPE_LABELS,
  ACCESS_TYPES,
  passwordProblems,
  type TAdminUser,
  type TCreateUserBody,
  USER_IMPORT_MAX_ROWS,
  VENDOR_ADMIN,
  ZCreateUserBody,
} from '@quire/contract';
import { accessTypeToDb, assertMayManage } from '../../lib/access-types.js';
import { type Actor, audit } from '../../lib/audit.js';
import { BULK_TX, type Deps, type Tx } from '../../lib/deps.js';
import { type FieldError, invalidInput, isUniqueViolation, summarise } from '../../lib/errors.js';
import { hashPassword } from '../../lib/passwords.js';
import type { AuthContext } from '../../lib/session.js';
import { assertSeatsAvailable } from '../licence/licence.service.js';
import { notASpreadsheet, tooManyRows, vendorAdminRefused } from './user.errors.js';
import * as repo from './user.repository.js';
import { adminUser, toAdminUser } from './user.service.js';
import { buildTemplate, readSheet, type SheetRow } from './user.spreadsheet.js';

// Creating users: one, many, or from a spreadsheet, all through the same checks.

type NewUserInput = TCreateUserBody;

interface Candidate {
  /** Where errors point: `body`, `body.users.3`, `row 4`. */
  at: string;
  input: NewUserInput;
  /** Fields already reported as malformed: not checked again. */
  skip?: Set<string>;
}

/** Lower-cases the login names; General staff always sign in as user. */
function normalise(input: NewUserInput): NewUserInput {
  return {
    ...input,
    username: input.username.trim().toLowerCase(),
    email: input.email.trim().toLowerCase(),
    role: input.access_type === 'General staff' ? 'user' : input.role,
    group_ids: [...new Set(input.group_ids ?? [])],
  };
}

/** Every reason these users cannot be created, each naming its field; empty when all are fine. */
async function checkNewUsers(db: Tx, candidates: Candidate[]): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  const taken = await repo.findTaken(
    db,
    candidates.map((c) => c.input.username),
    candidates.map((c) => c.input.email),
  );
  const takenNames = new Set(taken.map((u) => u.username.toLowerCase()));
  const takenEmails = new Set(taken.map((u) => u.email.toLowerCase()));
  const groups = await repo.existingGroupIds(db, [
    ...new Set(candidates.flatMap((c) => c.input.group_ids ?? [])),
  ]);
  const seenNames = new Map<string, string>();
  const seenEmails = new Map<string, string>();

  for (const { at, input } of candidates) {
    if (input.access_type === VENDOR_ADMIN) {
      errors.push({ path: `${at}.access_type`, message: 'Vendor Admin accounts cannot be created here' });
    }
    if (takenNames.has(input.username))
      errors.push({ path: `${at}.username`, message: 'This username is taken' });
    else if (seenNames.has(input.username)) {
      errors.push({ path: `${at}.username`, message: `Same username as ${seenNames.get(input.username)}` });
    } else seenNames.set(input.username, at);
    if (takenEmails.has(input.email))
      errors.push({ path: `${at}.email`, message: 'This e-mail is already in use' });
    else if (seenEmails.has(input.email)) {
      errors.push({ path: `${at}.email`, message: `Same e-mail as ${seenEmails.get(input.email)}` });
    } else seenEmails.set(input.email, at);
    for (const message of passwordProblems(input.password, {
      username: input.username,
      email: input.email,
    })) {
      errors.push({ path: `${at}.password`, message });
    }
    const unknown = (input.group_ids ?? []).filter((id) => !groups.has(id));
    if (unknown.length)
      errors.push({ path: `${at}.group_ids`, message: `Unknown groups: ${unknown.join(', ')}` });
  }
  return errors;
}

/** argon2 hashes, a few at a time (each takes ~50 ms of a libuv thread). */
async function hashAll(passwords: string[]): Promise<string[]> {
  const out: string[] = new Array(passwords.length);
  let next = 0;
  const worker = async () => {
    while (next < passwords.length) {
      const i = next++;
      out[i] = await hashPassword(passwords[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, passwords.length) }, worker));
  return out;
}

/** Writes users already checked by checkNewUsers, in one transaction, each with its audit event. */
async function insertUsers(
  deps: Deps,
  actor: Actor,
  candidates: Candidate[],
  source: 'form' | 'batch' | 'import',
): Promise<number[]> {
  const inputs = candidates.map((c) => c.input);
  const hashes = await hashAll(inputs.map((i) => i.password));
  return deps.db
    .$transaction(async (tx) => {
      // The groups they join, shared before the check reads them (lib/locks.ts shareRows): an
      // edit of one of those groups runs before or after, never alongside.
      await repo.shareGroups(tx, [...new Set(inputs.flatMap((i) => i.group_ids ?? []))]);
      // Check again inside the transaction: another admin may have taken a name meanwhile.
      const errors = await checkNewUsers(tx, candidates);
      if (errors.length) throw invalidInput(summarise(errors), errors);
      await assertSeatsAvailable(deps, tx, inputs.length);
      const company = await repo.companyId(tx);
      if (!company) throw new Error('No company row: the first start did not run');
      const ids: number[] = [];
      for (const [i, input] of inputs.entries()) {
        const user = await repo.createUser(tx, {
          companyId: company.id,
          username: input.username,
          email: input.email,
          firstName: input.first_name,
          lastName: input.last_name,
          loginRole: input.role,
          accessType: accessTypeToDb(input.access_type),
          passwordHash: hashes[i]!,
          createdById: actor.userId,
        });
        await repo.replaceGroups(tx, user.id, input.group_ids ?? []);
        await audit(tx, actor, {
          type: 'user',
          action: 'user.created',
          message: `Created ${ACCESS_TYPE_LABELS[input.access_type]} "${user.username}"`,
          targetType: 'user',
          targetId: user.id,
          details: {
            source,
            username: user.username,
            email: user.email,
            first_name: user.firstName,
            last_name: user.lastName,
            role: input.role,
            access_type: input.access_type,
            group_ids: input.group_ids ?? [],
          },
        });
        ids.push(user.id);
      }
      return ids;
    }, BULK_TX)
    .catch((err: unknown) => {
      if (isUniqueViolation(err)) {
        throw invalidInput('A username or e-mail was taken meanwhile; try again', []);
      }
      throw err;
    });
}

/** 403 when any new user (but a Vendor Admin, refused as bad input) would outrank the caller. */
function assertMayCreate(auth: AuthContext, candidates: Candidate[]) {
  assertMayManage(
    auth.accessType,
    candidates
      .filter((c) => c.input.access_type !== VENDOR_ADMIN)
      .map((c) => ({ accessType: c.input.access_type })),
  );
}

export async function createUser(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  body: NewUserInput,
): Promise<TAdminUser> {
  if (body.access_type === VENDOR_ADMIN) throw vendorAdminRefused();
  assertMayManage(auth.accessType, [{ accessType: body.access_type }]);
  const candidates = [{ at: 'body', input: normalise(body) }];
  const errors = await checkNewUsers(deps.db, candidates);
  if (errors.length) throw invalidInput(summarise(errors), errors);
  const [id] = await insertUsers(deps, actor, candidates, 'form');
  return adminUser(deps.db, id!);
}

export async function createManyUsers(deps: Deps, auth: AuthContext, actor: Actor, users: NewUserInput[]) {
  const candidates = users.map((user, i) => ({ at: `body.users.${i}`, input: normalise(user) }));
  assertMayCreate(auth, candidates);
  const errors = await checkNewUsers(deps.db, candidates);
  if (errors.length) throw invalidInput(summarise(errors), errors);
  const ids = await insertUsers(deps, actor, candidates, 'batch');
  const rows = await repo.findAdminUsers(deps.db, ids);
  return { created: ids.length, users: rows.map(toAdminUser) };
}

/** `Company Admin`, `company admin` and `COMPANY ADMIN` all name the same access type. */
/** A spreadsheet cell's problem in words for the person who filled it in. */
function importMessage(field: string, message: string): string {
  if (field === 'access_type') {
    const names = ACCESS_TYPES.filter((t) => t !== VENDOR_ADMIN).map((t) => ACCESS_TYPE_LABELS[t]);
    return `Unknown access type. Use one of: ${names.join(', ')}`;
  }
  if (field === 'role') return 'Unknown role. Use Admin or User';
  return message;
}

function accessTypeFromText(text: string): string {
  const wanted = text.trim().toLowerCase();
  return (
    ACCESS_TYPES.find((t) => t.toLowerCase() === wanted || ACCESS_TYPE_LABELS[t].toLowerCase() === wanted) ??
    text
  );
}

/** Reads, checks and (unless a dry run) creates the users of an import spreadsheet. */
export async function importUsers(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: { content: Buffer; dryRun: boolean },
) {
  const sheet = await readSheet(input.content);
  if (sheet.kind === 'unreadable') throw notASpreadsheet();
  if (sheet.kind === 'tooManyRows') throw tooManyRows(USER_IMPORT_MAX_ROWS);
  const errors: FieldError[] = [...sheet.errors];
  const candidates: Candidate[] = [];
  // Rows with a bad cell are still checked for the rest (taken username, password policy),
  // so one preview lists every problem of the file.
  const partial: Candidate[] = [];
  for (const row of sheet.rows) {
    const at = `row ${row.row}`;
    const fields = { ...row, access_type: accessTypeFromText(row.access_type), role: row.role.toLowerCase() };
    const parsed = ZCreateUserBody.safeParse(fields);
    if (parsed.success) {
      candidates.push({ at, input: normalise(parsed.data) });
      continue;
    }
    const bad = new Set<string>();
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '');
      bad.add(field);
      errors.push({ path: `${at}.${issue.path.join('.')}`, message: importMessage(field, issue.message) });
    }
    partial.push({
      at,
      input: {
        ...fields,
        username: row.username.trim().toLowerCase(),
        email: row.email.trim().toLowerCase(),
      } as NewUserInput,
      skip: bad,
    });
  }
  assertMayCreate(auth, candidates);
  const checked = await checkNewUsers(deps.db, [...candidates, ...partial]);
  const skipOf = new Map(partial.map((c) => [c.at, c.skip]));
  errors.push(...checked.filter((e) => !skipOf.get(e.path.split('.')[0]!)?.has(e.path.split('.')[1] ?? '')));
  errors.sort((a, b) => rowOf(a.path) - rowOf(b.path));
  const rows = sheet.rows.map(({ password: _password, ...rest }: SheetRow) => rest);

  if (input.dryRun) return { dry_run: true, rows, errors, created: 0 };
  if (errors.length) throw invalidInput(`Nothing was imported: ${summarise(errors)}`, errors);
  const ids = await insertUsers(deps, actor, candidates, 'import');
  return { dry_run: false, rows, errors: [], created: ids.length };
}

const rowOf = (path: string) => Number(/^row (\d+)/.exec(path)?.[1] ?? 0);

export const importTemplate = buildTemplate;
