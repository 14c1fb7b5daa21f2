import type { TAuthProvider, TAuthTestResult, ZAuthProviderBody } from '@quire/contract';
import type { z } from 'zod';
import { accessTypeFromDb, accessTypeToDb, assertCompanyAdmin } from '../../lib/access-types.js';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps } from '../../lib/deps.js';
import { invalidInput } from '../../lib/errors.js';
import { isPrivateHost } from '../../lib/private-hosts.js';
import { encryptSecret } from '../../lib/secrets.js';
import type { AuthContext } from '../../lib/session.js';
import { configOf, mapUser } from './directory-accounts.service.js';
import { DirectoryError, type DirectoryUser, findUser } from './settings.directory.js';
import {
  bindPasswordRequired,
  directoryFailed,
  directoryUserNotFound,
  ldapHostRefused,
  providerNotFound,
} from './settings.errors.js';
import * as repo from './settings.repository.js';

type ProviderInput = z.output<typeof ZAuthProviderBody>;

function toDto(p: repo.ProviderRow): TAuthProvider {
  return {
    id: p.id,
    name: p.name,
    enabled: p.enabled,
    url: p.url,
    start_tls: p.startTls,
    verify_certificate: p.verifyCertificate,
    ca_certificate: p.caCertificate,
    bind_dn: p.bindDn,
    has_bind_password: Boolean(p.bindPasswordEncrypted),
    base_dn: p.baseDn,
    user_filter: p.userFilter,
    username_attribute: p.usernameAttribute,
    email_attribute: p.emailAttribute,
    first_name_attribute: p.firstNameAttribute,
    last_name_attribute: p.lastNameAttribute,
    group_attribute: p.groupAttribute,
    default_access_type: accessTypeFromDb(p.defaultAccessType) as TAuthProvider['default_access_type'],
    group_mappings: p.groupMappings.map((m) => ({
      directory_group: m.directoryGroup,
      group_id: m.groupId,
      group_name: m.group?.name ?? null,
      access_type: m.accessType
        ? (accessTypeFromDb(m.accessType) as TAuthProvider['default_access_type'])
        : null,
    })),
    user_count: p._count.users,
    updated_at: p.updatedAt.toISOString(),
  };
}

/** host:port of an LDAP URL, the default port filled in (389, ldaps 636), lower-cased. */
function endpointOf(url: string): string {
  const u = new URL(url);
  const port = u.port || (u.protocol.toLowerCase() === 'ldaps:' ? '636' : '389');
  return `${u.hostname.toLowerCase()}:${port}`;
}

/** Where the stored bind password was given for, and the password. */
type StoredBind = { url: string; bindDn: string | null; bindPasswordEncrypted: string | null };

/**
 * Checks the form before anything is saved or a connection made (`prefix`: where its fields
 * are in the body). The URL's host: not on this machine or a private network unless
 * LDAP_ALLOW_PRIVATE_HOSTS. The stored bind password: kept (password absent) only for the
 * stored server and bind DN, never sent to a server or DN the form changed.
 */
async function checkForm(
  deps: Deps,
  input: ProviderInput,
  existing: StoredBind | null,
  prefix: string,
): Promise<void> {
  if (!deps.config.LDAP_ALLOW_PRIVATE_HOSTS && (await isPrivateHost(new URL(input.url).hostname)))
    throw ldapHostRefused(`${prefix}url`);
  checkKeptPassword(input, existing, prefix);
}

/** The stored bind password, kept (password absent), goes only with its server and bind DN. */
function checkKeptPassword(input: ProviderInput, existing: StoredBind | null, prefix: string): void {
  if (input.bind_password !== undefined || !existing?.bindPasswordEncrypted) return;
  const sameServer = endpointOf(input.url) === endpointOf(existing.url);
  const sameDn = (input.bind_dn || null) === existing.bindDn;
  if (!sameServer || !sameDn) throw bindPasswordRequired(`${prefix}bind_password`);
}

/**
 * Refuses (400, at the mapping) a group mapping whose Quire group is not in `found` (the groups
 * that exist), and a directory group mapped twice.
 */
function checkMappings(input: ProviderInput, found: Set<number>): void {
  const errors = input.group_mappings.flatMap((m, i) =>
    m.group_id && !found.has(m.group_id)
      ? [{ path: `body.group_mappings.${i}.group_id`, message: 'No such group' }]
      : [],
  );
  const seen = new Set<string>();
  input.group_mappings.forEach((m, i) => {
    const key = m.directory_group.toLowerCase();
    if (seen.has(key))
      errors.push({
        path: `body.group_mappings.${i}.directory_group`,
        message: 'This group is mapped twice',
      });
    seen.add(key);
  });
  if (errors.length) throw invalidInput(`group_mappings: ${errors[0]!.message}`, errors);
}

/** The provider's columns from the form; the password: absent keeps `stored`, '' clears it. */
function columnsOf(deps: Deps, input: ProviderInput, stored: string | null) {
  return {
    name: input.name,
    enabled: input.enabled,
    url: input.url,
    startTls: input.start_tls,
    verifyCertificate: input.verify_certificate,
    caCertificate: input.ca_certificate || null,
    bindDn: input.bind_dn || null,
    bindPasswordEncrypted:
      input.bind_password === undefined
        ? stored
        : input.bind_password === ''
          ? null
          : encryptSecret(deps.secretKey, input.bind_password),
    baseDn: input.base_dn,
    userFilter: input.user_filter,
    usernameAttribute: input.username_attribute,
    emailAttribute: input.email_attribute,
    firstNameAttribute: input.first_name_attribute,
    lastNameAttribute: input.last_name_attribute,
    groupAttribute: input.group_attribute || null,
    defaultAccessType: accessTypeToDb(input.default_access_type),
  };
}

export async function getProvider(deps: Deps): Promise<TAuthProvider | null> {
  const p = await repo.findProvider(deps.db);
  return p ? toDto(p) : null;
}

/** Creates or updates the one directory connection (Company Admin). */
export async function saveProvider(
  deps: Deps,
  auth: AuthContext,
  actor: Actor,
  input: ProviderInput,
): Promise<TAuthProvider> {
  assertCompanyAdmin(auth, 'change external authentication');
  const groupIds = [...new Set(input.group_mappings.flatMap((m) => (m.group_id ? [m.group_id] : [])))];
  checkMappings(input, new Set((await repo.existingGroupIds(deps.db, groupIds)).map((g) => g.id)));
  await checkForm(deps, input, await repo.findProvider(deps.db), 'body.');

  const id = await deps.db.$transaction(async (tx) => {
    // The connection as the last save left it: the password this save keeps is the last one
    // set, checked again here (a save just before may have moved the connection elsewhere).
    const existing = await repo.lockProvider(tx);
    checkKeptPassword(input, existing, 'body.');
    // The mapped groups, checked again once shared until the save ends: one deleted meanwhile
    // is refused at its mapping (400), never left to the mapping's insert (a 500).
    checkMappings(input, await repo.shareGroups(tx, groupIds));
    const columns = columnsOf(deps, input, existing?.bindPasswordEncrypted ?? null);
    const saved = await repo.saveProvider(
      tx,
      existing?.id ?? null,
      { ...columns, ...(existing ? {} : { createdById: actor.userId }) },
      input.group_mappings.map((m) => ({
        directoryGroup: m.directory_group,
        groupId: m.group_id ?? null,
        accessType: m.access_type ? accessTypeToDb(m.access_type) : null,
      })),
    );
    await audit(tx, actor, {
      type: 'settings',
      action: existing ? 'authentication.updated' : 'authentication.created',
      message: `External authentication ${existing ? 'updated' : 'set up'}: ${input.url} (${input.enabled ? 'on' : 'off'})`,
      targetType: 'auth_provider',
      targetId: saved,
      details: {
        url: input.url,
        enabled: input.enabled,
        start_tls: input.start_tls,
        verify_certificate: input.verify_certificate,
        bind_dn: columns.bindDn,
        bind_password:
          input.bind_password === undefined ? 'kept' : input.bind_password === '' ? 'cleared' : 'changed',
        base_dn: input.base_dn,
        user_filter: input.user_filter,
        default_access_type: input.default_access_type,
        group_mappings: input.group_mappings.length,
      },
    });
    return saved;
  });
  const row = await repo.findProviderById(deps.db, id);
  return toDto(row!);
}

/** Binds with the form's settings and finds one user: what was found, or the exact reason it failed (502). */
export async function testProvider(
  deps: Deps,
  auth: AuthContext,
  input: { settings: ProviderInput; username: string },
): Promise<TAuthTestResult> {
  assertCompanyAdmin(auth, 'test external authentication');
  const existing = await repo.findProvider(deps.db);
  await checkForm(deps, input.settings, existing, 'body.settings.');
  const columns = columnsOf(deps, input.settings, existing?.bindPasswordEncrypted ?? null);
  const config = configOf(deps, columns);
  let user: DirectoryUser | null;
  try {
    user = await findUser(config, input.username);
  } catch (err) {
    if (err instanceof DirectoryError) throw directoryFailed(err.message);
    throw err;
  }
  if (!user) throw directoryUserNotFound(input.username, config.userFilter, config.baseDn);
  const groups = await repo.existingGroupIds(
    deps.db,
    input.settings.group_mappings.flatMap((m) => (m.group_id ? [m.group_id] : [])),
  );
  const draft = {
    defaultAccessType: columns.defaultAccessType,
    groupMappings: input.settings.group_mappings.map((m) => ({
      directoryGroup: m.directory_group,
      groupId: m.group_id ?? null,
      accessType: m.access_type ? accessTypeToDb(m.access_type) : null,
      group: groups.find((g) => g.id === m.group_id) ?? null,
    })),
  } as unknown as repo.ProviderRow;
  const mapped = mapUser(draft, user);
  return {
    bound_as: config.bindDn ?? '(anonymous)',
    user: {
      dn: user.dn,
      username: user.username,
      email: user.email,
      first_name: user.firstName,
      last_name: user.lastName,
      groups: user.groups,
      access_type: mapped.accessType as TAuthTestResult['user']['access_type'],
      quire_groups: mapped.groupNames,
    },
  };
}

export async function deleteProvider(deps: Deps, auth: AuthContext, actor: Actor, id: number): Promise<void> {
  assertCompanyAdmin(auth, 'remove external authentication');
  await deps.db.$transaction(async (tx) => {
    const p = await repo.findProviderById(tx, id);
    if (!p) throw providerNotFound();
    const detached = await repo.deleteProvider(tx, id);
    await audit(tx, actor, {
      type: 'settings',
      action: 'authentication.deleted',
      message: `External authentication removed (${p.url}); ${detached} directory account(s) can no longer sign in until given a password`,
      targetType: 'auth_provider',
      targetId: id,
      details: { url: p.url, accounts_detached: detached },
    });
  });
}
