import { z } from 'zod';
import { ACCESS_TYPES, VENDOR_ADMIN } from './access.js';
import { ZId, ZNull, zLine, zSecret } from './common.js';
import { endpoint } from './http.js';

// External authentication (spec §7 "Settings"): one LDAP / Active Directory connection. Read
// in the Settings area; changed and tested by a Company Admin (it decides who gets which
// access type). The bind password is stored encrypted and never sent back.

/** Access types a directory may hand out: all but the vendor admin. */
export const DIRECTORY_ACCESS_TYPES = ACCESS_TYPES.filter((t) => t !== VENDOR_ADMIN) as [
  (typeof ACCESS_TYPES)[number],
  ...(typeof ACCESS_TYPES)[number][],
];
export const ZDirectoryAccessType = z.enum(DIRECTORY_ACCESS_TYPES);

/** A directory group (its DN) mapped to a Quire group and, optionally, an access type. */
export const ZGroupMapping = z.object({
  directory_group: zLine().trim().min(1, 'Enter the group DN').max(1000),
  group_id: ZId.nullable().optional(),
  access_type: ZDirectoryAccessType.nullable().optional(),
});

const ZAttribute = (name: string) =>
  z
    .string()
    .trim()
    .min(1, `Enter the ${name} attribute`)
    .max(100)
    .regex(/^[A-Za-z][A-Za-z0-9-]*$/, 'Use an attribute name such as uid or mail');

/** The connection as every call shows it: never the bind password. */
export const ZAuthProvider = z.object({
  id: z.number().int(),
  name: z.string(),
  enabled: z.boolean(),
  url: z.string(),
  start_tls: z.boolean(),
  verify_certificate: z.boolean(),
  ca_certificate: z.string().nullable(),
  bind_dn: z.string().nullable(),
  has_bind_password: z.boolean(),
  base_dn: z.string(),
  user_filter: z.string(),
  username_attribute: z.string(),
  email_attribute: z.string(),
  first_name_attribute: z.string(),
  last_name_attribute: z.string(),
  group_attribute: z.string().nullable(),
  default_access_type: ZDirectoryAccessType,
  group_mappings: z.array(
    z.object({
      directory_group: z.string(),
      group_id: z.number().int().nullable(),
      group_name: z.string().nullable(),
      access_type: ZDirectoryAccessType.nullable(),
    }),
  ),
  /** Accounts that signed in through this directory. */
  user_count: z.number().int(),
  updated_at: z.string(),
});
export type TAuthProvider = z.infer<typeof ZAuthProvider>;

const LDAP_URL = /^ldaps?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]*[a-z0-9])?)(:\d{1,5})?\/?$/i;

export const ZAuthProviderBody = z
  .object({
    name: zLine().trim().min(1, 'Enter a name').max(100).default('Directory'),
    enabled: z.boolean(),
    /** ldap://host[:port] (with start_tls) or ldaps://host[:port]. */
    url: z.string().trim().max(300).regex(LDAP_URL, 'Enter ldap://host:port or ldaps://host:port'),
    start_tls: z.boolean().default(false),
    /** Check the server's certificate (on unless turned off on purpose). */
    verify_certificate: z.boolean().default(true),
    /** PEM of the CA that signed the server's certificate, when it is not a public one. */
    ca_certificate: z
      .string()
      .trim()
      .max(20_000)
      .refine((v) => v === '' || v.includes('-----BEGIN CERTIFICATE-----'), 'Paste a PEM certificate')
      .optional(),
    /** Empty: bind anonymously for the search. */
    bind_dn: zLine().trim().max(1000).optional(),
    /** Absent: keep the stored one. Empty: clear it. */
    bind_password: zSecret().max(1024).optional(),
    base_dn: zLine().trim().min(1, 'Enter the search base').max(1000),
    /** An LDAP filter with {username} where the typed username goes. */
    user_filter: z
      .string()
      .trim()
      .min(1, 'Enter the user filter')
      .max(1000)
      .refine((v) => v.includes('{username}'), 'Put {username} where the username goes')
      .refine((v) => v.startsWith('(') && v.endsWith(')'), 'A filter is wrapped in parentheses'),
    username_attribute: ZAttribute('username').default('uid'),
    email_attribute: ZAttribute('e-mail').default('mail'),
    first_name_attribute: ZAttribute('first name').default('givenName'),
    last_name_attribute: ZAttribute('last name').default('sn'),
    /** The attribute listing a user's groups (memberOf); empty: search groups that name the user. */
    group_attribute: z
      .string()
      .trim()
      .max(100)
      .regex(/^([A-Za-z][A-Za-z0-9-]*)?$/, 'Use an attribute name such as memberOf')
      .optional(),
    default_access_type: ZDirectoryAccessType.default('General staff'),
    group_mappings: z.array(ZGroupMapping).max(200).default([]),
  })
  .refine((b) => !(b.start_tls && b.url.toLowerCase().startsWith('ldaps:')), {
    path: ['start_tls'],
    message: 'StartTLS is for ldap:// URLs; ldaps:// is TLS already',
  });
export type TAuthProviderBody = z.input<typeof ZAuthProviderBody>;

/** Test the form as it is (saved bind password when none is typed) by finding one user. */
export const ZAuthTestBody = z.object({
  settings: ZAuthProviderBody,
  username: zLine().trim().min(1, 'Enter a username to look up').max(255),
});

/** What a test found. */
export const ZAuthTestResult = z.object({
  bound_as: z.string(),
  user: z.object({
    dn: z.string(),
    username: z.string(),
    email: z.string().nullable(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    groups: z.array(z.string()),
    /** What the account would get in Quire. */
    access_type: ZDirectoryAccessType,
    quire_groups: z.array(z.string()),
  }),
});
export type TAuthTestResult = z.infer<typeof ZAuthTestResult>;

export const ZAuthDeleteBody = z.object({ id: ZId });

export const settingsContract = {
  authentication: endpoint({
    method: 'GET',
    path: '/api/settings/authentication',
    guard: { area: 'settings', access: 'read' },
    summary: 'The LDAP / Active Directory connection (never the bind password), or null when none is set',
    response: ZAuthProvider.nullable(),
  }),
  saveAuthentication: endpoint({
    method: 'POST',
    path: '/api/settings/authentication/create',
    guard: { area: 'settings', access: 'write' },
    summary:
      'Create or update the directory connection: URL, bind, search, attribute and group mapping (Company Admin)',
    body: ZAuthProviderBody,
    response: ZAuthProvider,
  }),
  testAuthentication: endpoint({
    method: 'POST',
    path: '/api/settings/authentication/test',
    guard: { area: 'settings', access: 'write' },
    upstream: true,
    summary:
      'Bind with the given settings and look up one user: 200 with what was found, 502 with the exact reason it failed; nothing is stored',
    body: ZAuthTestBody,
    response: ZAuthTestResult,
  }),
  deleteAuthentication: endpoint({
    method: 'POST',
    path: '/api/settings/authentication/delete',
    guard: { area: 'settings', access: 'write' },
    summary:
      'Remove the directory connection; its accounts stay, but cannot sign in until given a password (Company Admin)',
    body: ZAuthDeleteBody,
    response: ZNull,
  }),
};
