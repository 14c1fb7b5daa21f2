import { type AccessType, mayUseRole, ZUsername } from '@quire/contract';
import { accessTypeFromDb, accessTypeToDb } from '../../lib/access-types.js';
import { type Actor, audit, type FieldChange } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { decryptSecret } from '../../lib/secrets.js';
import { assertSeatsAvailable } from '../licence/licence.service.js';
import {
  authenticate,
  type DirectoryConfig,
  DirectoryError,
  type DirectoryUser,
} from './settings.directory.js';
import { directoryUnavailable } from './settings.errors.js';
import * as repo from './settings.repository.js';

// Directory accounts: what the stored provider means to the LDAP client, what a directory user
// gets in Quire (access type and groups from the mappings), and the sign-in hook that creates
// or updates their account. The provider's settings screen is settings.service.ts.

/** From least to most access: a user in several mapped groups gets the most. */
const ACCESS_RANK: AccessType[] = [
  'General staff',
  'User Administration Admin',
  'File Control Admin',
  'Auditor',
  'COMPANY ADMIN',
];

export function configOf(
  deps: Deps,
  p: Omit<DirectoryConfig, 'bindPassword' | 'timeoutMs' | 'allowPrivate'> & {
    bindPasswordEncrypted: string | null;
  },
): DirectoryConfig {
  return {
    url: p.url,
    startTls: p.startTls,
    verifyCertificate: p.verifyCertificate,
    caCertificate: p.caCertificate,
    bindDn: p.bindDn,
    bindPassword: p.bindPasswordEncrypted ? decryptSecret(deps.secretKey, p.bindPasswordEncrypted) : null,
    baseDn: p.baseDn,
    userFilter: p.userFilter,
    usernameAttribute: p.usernameAttribute,
    emailAttribute: p.emailAttribute,
    firstNameAttribute: p.firstNameAttribute,
    lastNameAttribute: p.lastNameAttribute,
    groupAttribute: p.groupAttribute,
    timeoutMs: deps.config.LDAP_TIMEOUT_MS,
    allowPrivate: deps.config.LDAP_ALLOW_PRIVATE_HOSTS,
  };
}

/** What a directory user gets in Quire: the most access among their mapped groups, and the mapped groups. */
export function mapUser(provider: repo.ProviderRow, user: DirectoryUser) {
  const dns = new Set(user.groups.map((g) => g.toLowerCase()));
  const matched = provider.groupMappings.filter((m) => dns.has(m.directoryGroup.toLowerCase()));
  const types = [
    accessTypeFromDb(provider.defaultAccessType),
    ...matched.flatMap((m) => (m.accessType ? [accessTypeFromDb(m.accessType)] : [])),
  ];
  const accessType = types.reduce((best, t) =>
    ACCESS_RANK.indexOf(t) > ACCESS_RANK.indexOf(best) ? t : best,
  );
  return {
    accessType,
    groupIds: [...new Set(matched.flatMap((m) => (m.groupId ? [m.groupId] : [])))],
    groupNames: matched.flatMap((m) => (m.group ? [m.group.name] : [])),
    mappedGroupIds: [...new Set(provider.groupMappings.flatMap((m) => (m.groupId ? [m.groupId] : [])))],
  };
}

/**
 * The sign-in hook (auth area): checks a login that the local password check does not
 * apply to (an account of the directory, or a login unknown here) against the enabled
 * directory. On success the account exists and is up to date (created on first sign-in
 * with the mapped access type and groups, seats counted) and its username is returned; null
 * when the directory does not know the login or refused the password, or the login is a
 * local account (the first-start admin and every local account stay local).
 * Throws directoryUnavailable when a directory account cannot be checked.
 */
export async function authenticateExternal(
  deps: Deps,
  login: string,
  password: string,
): Promise<{ username: string } | null> {
  const local = await repo.findUserByLogin(deps.db, login);
  if (local && local.authProviderId === null) return null;
  const provider = await repo.findProvider(deps.db);
  if (!provider?.enabled || (local && local.authProviderId !== provider.id)) return null;
  const config = configOf(deps, provider);
  let user: DirectoryUser | null;
  try {
    // A known directory account is looked up by its Quire username (it may have typed its e-mail).
    user = await authenticate(config, local ? local.username : login.trim(), password);
  } catch (err) {
    if (!(err instanceof DirectoryError)) throw err;
    deps.log.warn({ err: err.message }, 'directory sign-in failed');
    if (local) throw directoryUnavailable();
    return null;
  }
  if (!user) return null;
  return syncAccount(deps, provider, user);
}

type Account = NonNullable<Awaited<ReturnType<typeof repo.lockAccount>>>;

/**
 * What a sign-in changed of a known account, as a user edit audits it (the same keys): its
 * e-mail, names, access type and role, and its groups (all of them; the sign-in sets those
 * the directory maps). The time of the sign-in is not a change.
 */
function accountChanges(
  before: Account,
  profile: {
    email: string;
    firstName: string;
    lastName: string;
    accessType: Account['accessType'];
    loginRole: Account['loginRole'];
  },
  mapped: ReturnType<typeof mapUser>,
): Record<string, FieldChange> {
  const byId = (a: number, b: number) => a - b;
  const groupsBefore = before.memberships.map((m) => m.groupId).sort(byId);
  const groupsAfter = [
    ...new Set([...groupsBefore.filter((g) => !mapped.mappedGroupIds.includes(g)), ...mapped.groupIds]),
  ].sort(byId);
  const pairs: Array<[string, string | number[], string | number[]]> = [
    ['email', before.email, profile.email],
    ['first_name', before.firstName, profile.firstName],
    ['last_name', before.lastName, profile.lastName],
    ['role', before.loginRole, profile.loginRole],
    ['access_type', accessTypeFromDb(before.accessType), accessTypeFromDb(profile.accessType)],
    ['group_ids', groupsBefore, groupsAfter],
  ];
  return Object.fromEntries(
    pairs.filter(([, b, a]) => String(b) !== String(a)).map(([key, b, a]) => [key, { before: b, after: a }]),
  );
}

/** Creates or updates the Quire account of a directory user who just signed in. */
async function syncAccount(deps: Deps, provider: repo.ProviderRow, user: DirectoryUser) {
  const username = ZUsername.safeParse(user.username);
  if (!username.success) {
    deps.log.warn({ username: user.username }, 'directory username does not fit Quire’s username rules');
    return null;
  }
  const mapping = mapUser(provider, user);
  const email = (user.email ?? `${username.data}@directory.invalid`).toLowerCase();
  const actor: Actor = { userId: null };
  const now = deps.now();
  return deps.db.$transaction(async (tx) => {
    // Memberships change below: the mapped groups' rows first, then the person's (one order
    // for every membership change, lib/locks.ts shareRows). A group deleted since the
    // connection was read is left out: the sign-in goes on without it.
    const groups = await repo.shareGroups(tx, mapping.mappedGroupIds);
    const mapped = {
      ...mapping,
      groupIds: mapping.groupIds.filter((id) => groups.has(id)),
      mappedGroupIds: mapping.mappedGroupIds.filter((id) => groups.has(id)),
    };
    const known = await repo.findExternalUser(tx, provider.id, user.dn);
    const profile = {
      email,
      firstName: user.firstName ?? '',
      lastName: user.lastName ?? '',
      accessType: accessTypeToDb(mapped.accessType),
      loginRole: mayUseRole(mapped.accessType, 'admin') ? ('admin' as const) : ('user' as const),
      lastLoginAt: now,
    };
    if (known) {
      const before = await repo.lockAccount(tx, known.id);
      if (before?.status !== 'active') return { username: known.username }; // the sign-in refuses it
      await repo.updateUser(tx, known.id, profile);
      await repo.syncMappedGroups(tx, known.id, mapped.mappedGroupIds, mapped.groupIds);
      const changes = accountChanges(before, profile, mapped);
      if (Object.keys(changes).length)
        await audit(tx, actor, {
          type: 'user',
          action: 'user.updated',
          message: `Updated user "${before.username}" from the directory on sign-in: ${Object.keys(changes).join(', ')}`,
          targetType: 'user',
          targetId: known.id,
          details: { changes, source: 'directory', dn: user.dn },
        });
      return { username: known.username };
    }
    const clash = await repo.takenBy(tx, username.data, email);
    if (clash) {
      // A local account with this name or address stays local: the directory never takes it over.
      deps.log.warn({ username: username.data }, 'directory user clashes with an existing account');
      return null;
    }
    await assertSeatsAvailable(deps, tx, 1);
    const company = await repo.companyId(tx);
    if (!company) throw new Error('No company row: the first start did not run');
    const created = await repo.createUser(tx, {
      ...profile,
      companyId: company.id,
      username: username.data,
      passwordHash: null,
      authProviderId: provider.id,
      externalId: user.dn,
      emailVerifiedAt: now,
    });
    await repo.syncMappedGroups(tx, created.id, mapped.mappedGroupIds, mapped.groupIds);
    await audit(tx, actor, {
      type: 'user',
      action: 'user.created',
      message: `Created ${mapped.accessType} "${created.username}" on first sign-in through the directory`,
      targetType: 'user',
      targetId: created.id,
      details: {
        source: 'directory',
        dn: user.dn,
        access_type: mapped.accessType,
        group_ids: mapped.groupIds,
      },
    });
    return { username: created.username };
  });
}
