import { useEffect, useRef } from 'react';
import { NavLink } from 'react-router';
import { Button } from '../components/button';
import { type ThemeChoice, useThemeChoice } from '../lib/theme';
import { usePageDisclosure } from '../lib/use-page-disclosure';

const THEMES: Array<{ value: ThemeChoice; label: string }> = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/** System, Light or Dark: stored on this device, applied at once. */
export function ThemeSwitch() {
  const [choice, choose] = useThemeChoice();
  return (
    <fieldset className="theme-switch">
      <legend className="theme-switch__legend">Theme</legend>
      <div className="theme-switch__options">
        {THEMES.map(({ value, label }) => (
          <label key={value} className="theme-switch__option">
            <input
              type="radio"
              name="theme"
              value={value}
              checked={choice === value}
              onChange={() => choose(value)}
            />
            <span>{label}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

export interface AccountMenuProps {
  person: { name: string; username: string; first_name?: string | null };
  /** "Company Admin". */
  accessLabel: string;
  onSignOut: () => void;
  signingOut: boolean;
  /** Opens the list of keyboard shortcuts (also `?`). */
  onShortcuts: () => void;
}

/**
 * The header's user menu: a button with the person's initial (and name on a wide screen)
 * that opens who is signed in, Profile, the theme switch and Sign out. Esc, a click elsewhere,
 * leaving it with Tab or opening another page closes it.
 */
export function AccountMenu({ person, accessLabel, onSignOut, signingOut, onShortcuts }: AccountMenuProps) {
  const { open, close: fold, closeToButton, toggleProps } = usePageDisclosure('account-menu-panel');
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!box.current?.contains(event.target as Node)) fold();
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open, fold]);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Esc and focus leaving close the menu
    <div
      className="account-menu"
      ref={box}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          closeToButton();
        }
      }}
      onBlur={(e) => {
        if (open && e.relatedTarget && !box.current?.contains(e.relatedTarget as Node)) fold();
      }}
    >
      <button {...toggleProps} className="account-menu__button">
        <span className="avatar" aria-hidden="true">
          {(person.first_name || person.username).slice(0, 1).toUpperCase()}
        </span>
        {/* Named "Account: Jane Doe"; the name is shown on a wide screen, read on any. */}
        <span className="sr-only">Account:</span> <span className="account-menu__name">{person.name}</span>
        <span className="account-menu__caret" aria-hidden="true" />
      </button>
      {open ? (
        <section id="account-menu-panel" className="account account-menu__panel" aria-label="Signed in as">
          <div className="account__who">
            <p className="account__name">{person.name}</p>
            <p className="account__meta">
              <span className="account__username">{person.username}</span>
              <span aria-hidden="true"> · </span>
              <span>{accessLabel}</span>
            </p>
          </div>
          <NavLink to="/profile" className="button button--ghost account__profile">
            Profile
          </NavLink>
          <ThemeSwitch />
          <Button
            variant="ghost"
            small
            aria-keyshortcuts="?"
            onClick={() => {
              fold();
              onShortcuts();
            }}
          >
            Keyboard shortcuts{' '}
            <span aria-hidden="true">
              <kbd>?</kbd>
            </span>
          </Button>
          <Button variant="ghost" onClick={onSignOut} disabled={signingOut}>
            {signingOut ? 'Signing out…' : 'Sign out'}
          </Button>
        </section>
      ) : null}
    </div>
  );
}
