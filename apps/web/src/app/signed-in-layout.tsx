import { accessTypeLabel, landingPath, VENDOR_ADMIN } from '@quire/contract';
import { Suspense, useEffect, useState } from 'react';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { Brand } from '../components/brand';
import { type ToastState, useLocationToast } from '../components/notifications/use-location-toast';
import { PageLoader } from '../components/page-loader';
import { nextStep } from '../features/auth/lib/next-step';
import { HeaderSearch } from '../features/dashboard-and-search/components/header-search';
import { UploadButton } from '../features/files/components/upload-button';
import { NotificationBell } from '../features/notification/components/notification-bell';
import { useBranding } from '../lib/branding-query';
import { type AuthRecord, clearAuth, getAuth, getTemporalAuth } from '../lib/storage';
import { loginPathFor } from './login-path';
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
  // On a narrow screen the navigation folds away behind a Menu button; a new page folds it.
  const { pathname } = useLocation();
  /** The page the menu was unfolded on: it is open on that page only. */
  const [openOn, setOpenOn] = useState<string | null>(null);
  const menuOpen = openOn === pathname;
  const setMenuOpen = (toggle: (open: boolean) => boolean) => setOpenOn(toggle(menuOpen) ? pathname : null);

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <aside className="sidebar">
        <Brand branding={branding} />
        <button
          type="button"
          className="button button--ghost nav-toggle"
          aria-expanded={menuOpen}
          aria-controls="main-navigation"
          onClick={() => setMenuOpen((open) => !open)}
        >
          {menuOpen ? 'Close menu' : 'Menu'}
        </button>
        <nav id="main-navigation" className={menuOpen ? 'nav' : 'nav nav--folded'} aria-label="Main">
          {navigation.map(({ group, sections }) => (
            <div className="nav__group" key={group}>
              <p className="nav__heading">{group}</p>
              <ul>
                {sections.map((s) => (
                  <li key={s.path}>
                    <NavLink to={s.path} className="nav__link">
                      {s.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <UploadButton />
        <NotificationBell />
        <section className="account" aria-label="Signed in as">
          <span className="avatar" aria-hidden="true">
            {(person.first_name || person.username).slice(0, 1).toUpperCase()}
          </span>
          <div className="account__who">
            <p className="account__name">{person.name}</p>
            <p className="account__meta">
              <span className="account__username">{person.username}</span>
              <span aria-hidden="true"> · </span>
              <span>{accessTypeLabel(person.access_type)}</span>
            </p>
          </div>
          <NavLink to="/profile" className="button button--ghost account__profile">
            Profile
          </NavLink>
          <button type="button" className="button button--ghost" onClick={logout} disabled={pending}>
            {pending ? 'Signing out…' : 'Sign out'}
          </button>
        </section>
      </aside>
      <main id="main" className="content" tabIndex={-1}>
        {accessType === VENDOR_ADMIN ? null : <HeaderSearch />}
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
