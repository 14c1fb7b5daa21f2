import { useEffect, useState } from 'react';
import { NavLink } from 'react-router';
import { getFoldedNavGroups, setFoldedNavGroups } from '../lib/storage';
import type { Section } from './sections';

export interface NavigationProps {
  groups: Array<{ group: string; sections: Section[] }>;
  /** The group of the page shown (unfolded on arriving at one of its pages). */
  currentGroup: string | undefined;
  /** Folded away behind the Menu button (narrow screens only; the CSS decides). */
  folded: boolean;
}

const groupId = (group: string) => `nav-group-${group.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/**
 * The main navigation: one group per heading of app/sections.ts, each name a button (Enter or
 * Space) that folds or unfolds its links. All groups start open; the ones folded stay folded
 * on this device, so that a person who lives in Settings folds the rest once and has its
 * eleven links in sight. Arriving at a page of a folded group unfolds it. The sidebar scrolls
 * with the page (it has no scroll box of its own).
 */
export function Navigation({ groups, currentGroup, folded }: NavigationProps) {
  const [closed, setClosed] = useState<string[]>(getFoldedNavGroups);
  const fold = (group: string, close: boolean) => {
    const next = close ? [...closed.filter((g) => g !== group), group] : closed.filter((g) => g !== group);
    setClosed(next);
    setFoldedNavGroups(next);
  };
  // Arriving at a page of a folded group unfolds it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: on arriving in another group only
  useEffect(() => {
    if (currentGroup && closed.includes(currentGroup)) fold(currentGroup, false);
  }, [currentGroup]);
  const isOpen = (group: string) => !closed.includes(group);

  return (
    <nav id="main-navigation" className={folded ? 'nav nav--folded' : 'nav'} aria-label="Main">
      {groups.map(({ group, sections }) => {
        const open = isOpen(group);
        const id = groupId(group);
        return (
          <div className="nav__group" key={group}>
            <button
              type="button"
              className="nav__heading"
              aria-expanded={open}
              aria-controls={id}
              onClick={() => fold(group, open)}
            >
              <span>{group}</span>
              <span className="nav__chevron" aria-hidden="true" />
            </button>
            <ul id={id} hidden={!open}>
              {sections.map((s) => (
                <li key={s.path}>
                  <NavLink to={s.path} className="nav__link">
                    {s.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </nav>
  );
}
