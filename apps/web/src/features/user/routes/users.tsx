import { accessTypeLabel, type TAdminUser, VENDOR_ADMIN } from '@quire/contract';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '../../../components/button';
import { EmptyText, QueryTable, RowAction, Timestamp } from '../../../components/data-table';
import { NewButton, SearchAndStatus } from '../../../components/list-parts';
import { MenuButton, type MenuItem } from '../../../components/menu-button';
import { PageHeader } from '../../../components/page-header';
import { PageNavigation } from '../../../components/pagination';
import { currentUserId, useAreaAccess } from '../../../lib/permissions';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { useFailureToast } from '../../../lib/use-failure-toast';
import { type UsersQuery, useUsers } from '../api/get-users';
import { ResetPasswordDialog } from '../components/reset-password-dialog';
import { type StatusAction, UserActionDialog } from '../components/user-action-dialogs';
import { UserFormDialog } from '../components/user-form-dialog';
import { UserStatusBadge } from '../components/user-status-badge';

export const USERS_PAGE_SIZE = 20;
const COLUMNS = ['Name', 'Username', 'E-mail', 'Access type', 'Status', 'Created'];

type Status = NonNullable<UsersQuery['status']>;
const STATUS_FILTERS: Array<{ value: '' | Status; label: string }> = [
  { value: '', label: 'All but deleted' },
  { value: 'active', label: 'Active' },
  { value: 'deactivated', label: 'Deactivated' },
  { value: 'deleted', label: 'Deleted' },
];

const statusFrom = (value: string | null): '' | Status =>
  STATUS_FILTERS.find((f) => f.value === value)?.value ?? '';

type Open =
  | { kind: 'create' }
  | { kind: 'edit'; user: TAdminUser }
  | { kind: 'password'; user: TAdminUser }
  | { kind: StatusAction; user: TAdminUser }
  | null;

/** The list's page, search and status live in the URL (?page=2&search=ann&status=active). */
function useListParams() {
  const [searchParams, setSearchParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(searchParams.get('page') ?? '', 10) || 1);
  const search = (searchParams.get('search') ?? '').trim();
  const status = statusFrom(searchParams.get('status'));
  /** A new page is a step Back can undo; a new filter replaces the entry (and goes to page 1). */
  const change = (next: { page?: number; search?: string; status?: '' | Status }) => {
    setSearchParams(
      (previous) => {
        const params = new URLSearchParams(previous);
        const set = (key: string, value: string | undefined) =>
          value ? params.set(key, value) : params.delete(key);
        if (next.search !== undefined) set('search', next.search);
        if (next.status !== undefined) set('status', next.status);
        const nextPage = next.page ?? 1;
        set('page', nextPage > 1 ? String(nextPage) : undefined);
        return params;
      },
      { replace: next.page === undefined },
    );
  };
  return { page, search, status, change };
}

export function UsersPage() {
  const { canWrite } = useAreaAccess('settings');
  const me = currentUserId();
  const list = useListParams();
  const { page, status } = list;
  // What is typed; the URL follows once the typing stops (and the box follows Back).
  const [search, setSearch] = useState(list.search);
  const [open, setOpen] = useState<Open>(null);
  const tableRef = useRef<HTMLDivElement>(null);
  const typed = useDebouncedValue(search.trim(), 300);
  const debouncedSearch = list.search;

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of what is typed
  useEffect(() => {
    if (typed !== list.search) list.change({ search: typed });
  }, [typed]);
  useEffect(() => {
    setSearch((current) => (current.trim() === list.search ? current : list.search));
  }, [list.search]);

  const query: UsersQuery = {
    page,
    quantity: USERS_PAGE_SIZE,
    ...(debouncedSearch ? { search: debouncedSearch } : {}),
    ...(status ? { status } : {}),
  };
  const users = useUsers(query);
  useFailureToast(users.error, users.errorUpdatedAt, 'Failed to load users');

  const filtered = debouncedSearch !== '' || status !== '';
  const rows = users.data?.users ?? [];
  const close = () => setOpen(null);
  const goToPage = (next: number) => {
    list.change({ page: next });
    tableRef.current?.scrollIntoView?.({ block: 'start', behavior: 'smooth' });
  };

  return (
    <>
      <PageHeader title="Users">Everyone who can sign in to your company's workspace.</PageHeader>

      <div className="section-header">
        <div className="page-actions">
          {canWrite ? (
            <>
              <NewButton onClick={() => setOpen({ kind: 'create' })}>New user</NewButton>
              <Link className="button button--ghost" to="/admin/users/import">
                Import from Excel
              </Link>
            </>
          ) : null}
          <Link className="button button--ghost" to="/admin/logged-in-users">
            Signed-in users
          </Link>
        </div>
        {canWrite ? null : <span className="badge badge--neutral">Read only</span>}
      </div>

      <SearchAndStatus
        label="Filter users"
        placeholder="Name, username or e-mail"
        search={search}
        onSearch={setSearch}
        status={status}
        onStatus={(next) => list.change({ status: next as '' | Status })}
        statuses={STATUS_FILTERS}
      />

      <div ref={tableRef} className="scroll-anchor" />
      <QueryTable
        query={users}
        what="users"
        rows={rows}
        empty={
          filtered ? (
            <>
              <EmptyText title="No users match">
                {debouncedSearch ? `Nobody matches “${debouncedSearch}”` : 'Nobody has this status'}
                {debouncedSearch && status ? ' with this status' : ''}.
              </EmptyText>
              <Button
                variant="ghost"
                onClick={() => {
                  setSearch('');
                  list.change({ search: '', status: '' });
                }}
              >
                Clear the filters
              </Button>
            </>
          ) : (
            <>
              <h2>No users yet</h2>
              <p className="muted">Create the first account, or import many at once from a spreadsheet.</p>
              {canWrite ? <NewButton onClick={() => setOpen({ kind: 'create' })}>New user</NewButton> : null}
            </>
          )
        }
        caption="Users"
        columns={COLUMNS}
        busy={users.isFetching}
        cells={(user) => (
          <>
            <td>
              {user.name || '—'}
              {user.id === me ? <span className="muted"> (you)</span> : null}
            </td>
            <td>{user.username}</td>
            <td>{user.email}</td>
            <td className="nowrap">
              {accessTypeLabel(user.access_type)}
              <span className="cell-muted"> · {user.role === 'admin' ? 'Admin' : 'User'}</span>
            </td>
            <td>
              <UserStatusBadge status={user.status} />
            </td>
            <td>
              <Timestamp iso={user.created_at} show="date" />
            </td>
          </>
        )}
        rowActions={
          canWrite && ((user) => <RowActions user={user} isSelf={user.id === me} onOpen={setOpen} />)
        }
      />

      <PageNavigation data={users.data} noun="users" onPage={goToPage} busy={users.isFetching} />

      {open?.kind === 'create' ? <UserFormDialog onClose={close} /> : null}
      {open?.kind === 'edit' ? (
        <UserFormDialog user={open.user} isSelf={open.user.id === me} onClose={close} />
      ) : null}
      {open?.kind === 'password' ? <ResetPasswordDialog user={open.user} onClose={close} /> : null}
      {open && open.kind !== 'create' && open.kind !== 'edit' && open.kind !== 'password' ? (
        <UserActionDialog action={open.kind} user={open.user} onClose={close} />
      ) : null}
    </>
  );
}

/**
 * What can be done to one row; nothing the API would refuse (yourself, the vendor's account).
 * Edit stays in sight; the rest wait in a "More actions" menu, so that a row takes one line.
 */
function RowActions({
  user,
  isSelf,
  onOpen,
}: {
  user: TAdminUser;
  isSelf: boolean;
  onOpen: (open: Open) => void;
}) {
  if (user.access_type === VENDOR_ADMIN && !isSelf) return null;
  const name = user.name || user.username;
  const open = (kind: NonNullable<Open>['kind']) => () => onOpen({ kind, user } as Open);
  if (user.status === 'deleted')
    return (
      <span className="row-actions">
        <RowAction label={`Activate ${name}`} onClick={open('activate')}>
          Activate
        </RowAction>
      </span>
    );
  const more: MenuItem[] = [
    { label: 'Reset password', name: `Reset password ${name}`, onSelect: open('password') },
    ...(user.is2FAEnabled && !isSelf
      ? [{ label: 'Reset 2FA', name: `Reset 2FA ${name}`, onSelect: open('reset2fa') }]
      : []),
    ...(isSelf
      ? []
      : [
          user.status === 'active'
            ? { label: 'Deactivate', name: `Deactivate ${name}`, onSelect: open('deactivate') }
            : { label: 'Activate', name: `Activate ${name}`, onSelect: open('activate') },
          { label: 'Delete', name: `Delete ${name}`, danger: true, onSelect: open('delete') },
        ]),
  ];
  return (
    <span className="row-actions">
      <RowAction label={`Edit ${name}`} onClick={open('edit')}>
        Edit
      </RowAction>
      <MenuButton label="More" name={`More actions for ${name}`} items={more} />
    </span>
  );
}
