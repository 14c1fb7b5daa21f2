import type { TAuthProvider, TAuthProviderBody } from '@quire/contract';

// The directory (LDAP) settings form's values: where they start from, and what the API takes.

/** Why a Save that turns sign-in on is refused after a failed test. */
export const TEST_FAILED =
  'The last test failed, so directory accounts cannot sign in with these settings. Fix them and test again, or untick this to save them turned off.';

export type Mapping = { directory_group: string; group_id: number | null; access_type: string | null };
export type DirectoryValues = Omit<Required<TAuthProviderBody>, 'group_mappings'> & {
  group_mappings: Mapping[];
};

export function initialForm(p: TAuthProvider | null): DirectoryValues {
  return {
    name: p?.name ?? 'Directory',
    // A new connection starts off: it is turned on once it has been tested.
    enabled: p?.enabled ?? false,
    url: p?.url ?? 'ldaps://',
    start_tls: p?.start_tls ?? false,
    verify_certificate: p?.verify_certificate ?? true,
    ca_certificate: p?.ca_certificate ?? '',
    bind_dn: p?.bind_dn ?? '',
    bind_password: '',
    base_dn: p?.base_dn ?? '',
    user_filter: p?.user_filter ?? '(&(objectClass=person)(uid={username}))',
    username_attribute: p?.username_attribute ?? 'uid',
    email_attribute: p?.email_attribute ?? 'mail',
    first_name_attribute: p?.first_name_attribute ?? 'givenName',
    last_name_attribute: p?.last_name_attribute ?? 'sn',
    group_attribute: p?.group_attribute ?? '',
    default_access_type: p?.default_access_type ?? 'General staff',
    group_mappings:
      p?.group_mappings.map((m) => ({
        directory_group: m.directory_group,
        group_id: m.group_id,
        access_type: m.access_type,
      })) ?? [],
  };
}

/** The form as the API takes it: an untouched password field keeps the stored one. */
export function toBody(f: DirectoryValues, passwordTouched: boolean): TAuthProviderBody {
  const { bind_password, ...rest } = f;
  return {
    ...rest,
    ...(passwordTouched ? { bind_password } : {}),
    group_mappings: f.group_mappings.map((m) => ({
      directory_group: m.directory_group,
      group_id: m.group_id,
      access_type: (m.access_type || null) as TAuthProviderBody['default_access_type'] | null,
    })),
  };
}

export const TEXT_FIELDS: Array<[keyof DirectoryValues, string, string?]> = [
  ['url', 'Server URL', 'ldaps://ldap.example.com:636, or ldap://…:389 with StartTLS'],
  [
    'bind_dn',
    'Bind DN',
    'The account that searches, e.g. cn=quire,ou=services,dc=example,dc=com; empty: anonymous',
  ],
  ['base_dn', 'Search base', 'Where users are looked for, e.g. ou=people,dc=example,dc=com'],
  [
    'user_filter',
    'User filter',
    'With {username} where the typed username goes; Active Directory: (sAMAccountName={username})',
  ],
  ['username_attribute', 'Username attribute'],
  ['email_attribute', 'E-mail attribute'],
  ['first_name_attribute', 'First name attribute'],
  ['last_name_attribute', 'Last name attribute'],
  [
    'group_attribute',
    'Group attribute',
    'memberOf on Active Directory; empty: groups that list the user as member',
  ],
];
