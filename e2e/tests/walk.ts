// What every access-type journey does on each screen: reach it by clicking what a person
// sees (the navigation, on a narrow screen behind its Menu button), wait for its heading,
// and check it with axe-core (WCAG 2.1 A and AA: no violations).
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const DESKTOP = { width: 1366, height: 850 };
export const PHONE = { width: 390, height: 844 };

/** Signs in from /login (the one address a journey types) and waits until it moved on. */
export async function signInAs(
  page: Page,
  who: { username: string; password: string },
  role: 'admin' | 'user',
  /** Where the sign-in should land; anywhere but /login when not given. */
  landing?: RegExp,
) {
  await page.goto('/login');
  await page.getByLabel('Username or e-mail').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await page.getByLabel('Role').selectOption(role);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (landing) await expect(page).toHaveURL(landing);
  else await expect(page).not.toHaveURL(/\/login/);
}

/** No WCAG 2.1 A/AA violation on the page as it is now; the message lists what axe found. */
export async function expectAccessible(page: Page, screen: string) {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    // A sandboxed frame with no scripts (an Office preview's server-made HTML) has no world for
    // axe to run in: waiting for one can hang the run. Its title is checked by the journeys.
    .exclude('iframe[sandbox=""]')
    .analyze();
  const found = violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(found, `axe on ${screen}`).toEqual([]);
}

/** The page does not scroll sideways (lists fold into cards on a phone). */
export async function expectNoSidewaysScroll(page: Page, screen: string) {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${screen} scrolls sideways by ${overflow}px`).toBeLessThanOrEqual(1);
}

/**
 * Opens a section from the main navigation by its link name: unfolds the narrow screen's
 * menu and the link's group when they are folded, clicks, and waits for the page's heading.
 */
export async function openSection(page: Page, link: string, heading: string | RegExp = link) {
  const nav = page.getByRole('navigation', { name: 'Main' });
  const target = nav.getByRole('link', { name: link, exact: true });
  if (!(await target.isVisible())) {
    const menu = page.getByRole('button', { name: /^(Menu|Open menu)$/ });
    if (await menu.isVisible()) await menu.click();
  }
  if (!(await target.isVisible())) {
    // A folded group of the navigation: its heading button names the group.
    const group = nav.locator('[aria-expanded="false"]').filter({ has: page.locator(':scope') });
    const count = await group.count();
    for (let i = 0; i < count && !(await target.isVisible()); i++) {
      await group.nth(0).click();
    }
  }
  await target.click();
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
}

/** Visits each named section in turn and checks it; returns nothing, fails on the first fault. */
export async function walkSections(
  page: Page,
  sections: Array<{ link: string; heading?: string | RegExp }>,
  options: { narrow?: boolean } = {},
) {
  for (const s of sections) {
    await openSection(page, s.link, s.heading ?? s.link);
    await expectAccessible(page, s.link);
    if (options.narrow) await expectNoSidewaysScroll(page, s.link);
  }
}

/** Types `text` into the header's search and presses Enter: the search page for it. */
export async function searchFromHeader(page: Page, text: string) {
  const box = page.getByRole('combobox', { name: 'Search files' });
  await box.fill(text);
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${text}`));
}

/** Categories → the category's row in the tree → Open: its files' page. */
export async function openCategory(page: Page, name: string) {
  await openSection(page, 'Categories');
  await page.getByRole('treegrid', { name: 'Categories' }).getByRole('row', { name }).click();
  await page.getByRole('region', { name }).getByRole('link', { name: 'Open' }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
}
