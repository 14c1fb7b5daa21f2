import { accessTypeLabel, landingPath, VENDOR_ADMIN } from '@quire/contract';
import { Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { Brand } from '../components/brand';
import { ShortcutsDialog, useKeyboardShortcuts } from '../components/keyboard-shortcuts';
import { type ToastState, useLocationToast } from '../components/notifications/use-location-toast';
import { PageOnItsWay } from '../components/page-loader';
import { nextStep } from '../features/auth/lib/next-step';
import { HeaderSearch } from '../features/dashboard-and-search/components/header-search';
import { UploadButton } from '../features/file/components/upload-button';
import { NotificationBell } from '../features/notification/components/notification-bell';
import { useBranding } from '../lib/branding-query';
import { type AuthRecord, clearAuth, getAuth, getTemporalAuth } from '../lib/storage';
import { usePageDisclosure } from '../lib/use-page-disclosure';
import { AccountMenu } from './account-menu';
import { loginPathFor } from './login-path';
import { Navigation } from './navigation';
import { mayOpen, navigationFor, sectionFor } from './sections';
import { useLogout } from './use-logout';
import { useSessionCheck } from './use-session-check';

const INVALID_ROLE_MESSAGE = 'Invalid role, Try again with the correct role';

/** A stored session whose role and access type lead nowhere: forget it, sign in again. */
function InvalidSession() {
  useEffect(() => clearAuth(), []);
  return <Navigate to="/login" replace state={{ toast: INVALID_ROLE_MESSAGE, toastKind: 'warning' }} />;
}

/**
 * The frame of every signed-in page: the guard (signed in, and allowed on this page),
 * the session check, the navigation of the person's role, who is signed in, and Sign out.
 */
export function SignedInLayout() {
  const location = useLocation();
  const auth = getAuth();
  if (!auth) {
    // A sign-in still waiting for its second factor goes back to that step, not to /login.
    const waiting = getTemporalAuth();
    if (waiting) {
      const step = nextStep({
        role: waiting.data.role,
        accessType: waiting.data.access_type,
        isCompany2FAEnabled: waiting.data.isCompany2FAEnabled,
        isUser2FAEnabled: waiting.data.isUser2FAEnabled,
        redirect: `${location.pathname}${location.search}`,
      });
      if (step.kind === 'setup-2fa' || step.kind === 'verify-2fa')
        return <Navigate to={step.to} replace state={toastState(FINISH_TWO_FACTOR, 'info')} />;
    }
    return <Navigate to={loginPathFor(location)} replace state={toastState(SIGN_IN_FIRST, 'info')} />;
  }

  const { role, access_type: accessType } = auth.data;
  const section = sectionFor(location.pathname);
  if (section && !mayOpen(section, role, accessType)) {
    const home = landingPath(role, accessType);
    return home ? (
      <Navigate to={home} replace state={toastState(NOT_YOUR_PAGE, 'warning')} />
    ) : (
      <InvalidSession />
    );
  }
  return <SignedInShell auth={auth} />;
}

export const SIGN_IN_FIRST = 'Sign in to open that page';
export const FINISH_TWO_FACTOR = 'Finish signing in with your authenticator app first';
export const NOT_YOUR_PAGE = 'That page is not open to your account, so you are back on your own start page';

const toastState = (toast: string, toastKind: ToastState['toastKind']): ToastState => ({ toast, toastKind });

function SignedInShell({ auth }: { auth: AuthRecord }) {
  useLocationToast();
  const { user } = useSessionCheck();
  const { logout, pending } = useLogout();
  const branding = useBranding();
  const { role, access_type: accessType } = auth.data;
  const person = user ?? auth.data.user;
  const navigation = navigationFor(role, accessType);
  const { pathname } = useLocation();
  const currentGroup = sectionFor(pathname)?.group;
  // On a narrow screen the navigation is a drawer behind the Menu button, and the search an
  // icon that unfolds it; a new page folds both. Each remembers the page it was opened on.
  const menu = usePageDisclosure('main-navigation');
  const menuOpen = menu.open;
  const search = usePageDisclosure('header-search');
  const searchOpen = search.open;
  const hasSearch = accessType !== VENDOR_ADMIN;
  // The search unfolded (by its icon or by "/"): the focus goes to its box.
  useEffect(() => {
    if (searchOpen) document.querySelector<HTMLInputElement>('#header-search input')?.focus();
  }, [searchOpen]);
  // The drawer opened: the focus goes to its first group; Esc anywhere closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on opening only
  useEffect(() => {
    if (!menuOpen) return;
    document.querySelector<HTMLElement>('#main-navigation button, #main-navigation a')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') menu.closeToButton();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  const shortcuts = useKeyboardShortcuts({
    focusSearch: hasSearch
      ? () => {
          search.show();
          document.querySelector<HTMLInputElement>('#header-search input')?.focus();
        }
      : undefined,
  });

  return (
    <div className={menuOpen ? 'shell shell--menu-open' : 'shell'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <button {...menu.toggleProps} className="button button--ghost nav-toggle">
          {menuOpen ? 'Close menu' : 'Menu'}
        </button>
        <Brand branding={branding} />
        {hasSearch ? (
          <>
            <button
              {...search.toggleProps}
              className="icon-button topbar__search-toggle"
              aria-label={searchOpen ? 'Close search' : 'Open search'}
            >
              <span className="icon icon--search" aria-hidden="true" />
            </button>
            <div id="header-search" className={searchOpen ? 'topbar__search is-open' : 'topbar__search'}>
              <HeaderSearch />
            </div>
          </>
        ) : null}
        <div className="topbar__actions">
          <UploadButton />
          <NotificationBell />
          <AccountMenu
            person={person}
            accessLabel={accessTypeLabel(person.access_type)}
            onSignOut={logout}
            signingOut={pending}
            onShortcuts={shortcuts.openHelp}
          />
        </div>
      </header>
      <aside className="sidebar">
        <Navigation groups={navigation} currentGroup={currentGroup} folded={!menuOpen} />
      </aside>
      {menuOpen ? <div className="nav-backdrop" aria-hidden="true" onClick={menu.closeToButton} /> : null}
      <main id="main" className="content" tabIndex={-1}>
        <Suspense fallback={<PageOnItsWay />}>
          <Outlet />
        </Suspense>
      </main>
      {shortcuts.helpOpen ? <ShortcutsDialog onClose={shortcuts.closeHelp} /> : null}
    </div>
  );
}
