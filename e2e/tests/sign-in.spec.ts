import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config.js';
import { expectAccessible } from './walk.js';

test('the admin signs in, lands on /admin/category, signs out and lands on /', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expectAccessible(page, 'Sign in');
  await page.getByLabel('Username or e-mail').fill(E2E_ADMIN.username);
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByLabel('Role').selectOption('admin');
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL(/\/admin\/category$/);
  await expect(page.getByText(E2E_ADMIN.username).first()).toBeVisible();

  await page.getByRole('button', { name: /^Account: / }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('You have been signed out')).toBeVisible();
  await expectAccessible(page, 'Signed out');
  const stored = await page.evaluate(() => localStorage.getItem('auth'));
  expect(stored).toBeNull();
});

test('the sign-in page painted from HTML is adopted by the script, keeping what was typed and sent', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  // Counts the nodes taken out of the page's root from its first byte on: a script that renders
  // over the static page (rather than hydrating it) removes the form and paints a new one.
  // Also counts the moments the page has no title once its static one has been parsed (as the
  // script hands the title over to React's).
  await page.addInitScript(() => {
    const w = window as unknown as { removedFromPage: number; untitled: number };
    w.removedFromPage = 0;
    w.untitled = 0;
    let titled = false;
    new MutationObserver((records) => {
      const root = document.getElementById('root');
      for (const r of records) if (root?.contains(r.target)) w.removedFromPage += r.removedNodes.length;
      if (document.title !== '') titled = true;
      else if (titled) w.untitled += 1;
    }).observe(document, { childList: true, subtree: true });
  });
  // The entry script is held back until the person has typed into the static page.
  let release = () => {};
  const typed = new Promise<void>((resolve) => {
    release = resolve;
  });
  let asked = false;
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    asked = true;
    await typed;
    await route.continue();
  });
  await page.goto('/login');
  const form = page.locator('form');
  await page.getByLabel('Username or e-mail').fill('someone');
  // Sign in pressed before the script has arrived: held, not posted as a plain form.
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => asked).toBe(true);
  release();
  // React marks the elements it has taken over.
  await expect
    .poll(() => form.evaluate((f) => Object.keys(f).some((k) => k.startsWith('__reactFiber'))))
    .toBe(true);
  // The held Sign in is done once the page is ready: the form's own check answers.
  await expect(page.getByText('Enter your password')).toBeVisible();
  await expect(page.getByLabel('Username or e-mail')).toHaveValue('someone');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page).toHaveTitle('Sign in · Quire');
  const after = await page.evaluate(() => {
    const { removedFromPage, untitled } = window as unknown as { removedFromPage: number; untitled: number };
    return { removedFromPage, untitled };
  });
  expect(after.removedFromPage).toBe(0);
  expect(after.untitled, 'moments without a title').toBe(0);
  expect(errors).toEqual([]);
});

test('a wrong password shows the server message and stays on /login', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username or e-mail').fill(E2E_ADMIN.username);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByLabel('Role').selectOption('admin');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('Invalid username or password')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test('an unknown page path serves the app, an unknown API path a JSON 404', async ({ page, request }) => {
  const api = await request.get('/api/does-not-exist');
  expect(api.status()).toBe(404);
  expect(await api.json()).toMatchObject({ code: 'not_found' });

  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-type']).toMatch(/text\/html/);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page).toHaveURL(/\/no\/such\/page$/);
  await expectAccessible(page, 'Page not found');
});

test('a signed-in page asked for without a session goes to /login, and comes back after', async ({
  page,
}) => {
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fadmin%2Fusers$/);
  await page.getByLabel('Username or e-mail').fill(E2E_ADMIN.username);
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByLabel('Role').selectOption('admin');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
});
