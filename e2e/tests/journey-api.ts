// Calls the journeys make straight to the API (as the seeded admin), outside the browser.
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config.js';
import { signInAs } from './walk.js';

export async function adminToken(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/login', { data: { ...E2E_ADMIN, role: 'admin' } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data.access_token as string;
}

export interface JourneyUser {
  id: number;
  username: string;
  email: string;
  password: string;
}

/** A new user, created by the admin through the API: General staff (login role user) by default. */
export async function createJourneyUser(
  request: APIRequestContext,
  token: string,
  prefix: string,
  access: { access_type: string; role: 'admin' | 'user' } = { access_type: 'General staff', role: 'user' },
): Promise<JourneyUser> {
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const user = {
    username: `${prefix}-${suffix}`,
    email: `${prefix}-${suffix}@example.test`,
    password: 'Journey-Start-Phrase-42',
  };
  const response = await request.post('/api/users/createUser', {
    headers: { Authorization: `Bearer ${token}` },
    data: { ...user, first_name: 'Journey', last_name: prefix, ...access },
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return { ...user, id: (await response.json()).data.id as number };
}

/** A new General staff user (login role user), created by the admin through the API. */
export function createGeneralStaff(request: APIRequestContext, token: string, prefix: string) {
  return createJourneyUser(request, token, prefix);
}

/**
 * A category, made straight in the journey server's database (the catalog's storeFolder is
 * not on this branch yet): the embedded PostgreSQL's port and password are in the data folder.
 */
export async function createCategoryInDb(name: string): Promise<number> {
  const { readFileSync } = await import('node:fs');
  const path = await import('node:path');
  const pg = (await import('pg')).default;
  const dataDir = process.env.QUIRE_E2E_DATA_DIR as string;
  const port = readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3];
  const password = readFileSync(path.join(dataDir, 'postgres.password'), 'utf8').trim();
  const client = new pg.Client({
    host: '127.0.0.1',
    port: Number(port),
    user: 'postgres',
    password,
    database: 'quire',
  });
  await client.connect();
  try {
    const res = await client.query(
      'INSERT INTO categories (name, updated_at) VALUES ($1, now()) RETURNING id',
      [name],
    );
    return res.rows[0].id as number;
  } finally {
    await client.end();
  }
}

/** Signs in through the sign-in page and waits until it has moved on. */
export function signIn(page: Page, username: string, password: string, role: 'admin' | 'user') {
  return signInAs(page, { username, password }, role);
}

/** Opens the header's user menu: who is signed in, Profile, the theme switch, Sign out. */
export async function openAccountMenu(page: Page) {
  await page.getByRole('button', { name: /^Account: / }).click();
}

/** Signs out from the signed-in frame (through the user menu). */
export async function signOut(page: Page) {
  await openAccountMenu(page);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/$/);
}

/**
 * A workplace for a staff journey, set up by the admin through the API: a value list
 * "Status" (Approved, Rejected), a list field choosing from it, and two categories asking
 * for it, where `staff` may view, upload, edit, delete and share.
 */
export async function createWorkplace(
  request: APIRequestContext,
  token: string,
  staff: { id: number },
  stamp: string,
) {
  const headers = { Authorization: `Bearer ${token}` };
  const post = async (path: string, data: object) => {
    const response = await request.post(path, { headers, data });
    expect(response.status(), await response.text()).toBeLessThan(300);
    return (await response.json()).data as { id: number };
  };
  const list = await post('/api/create_value_list', {
    name: `Status ${stamp}`,
    items: [{ label: 'Approved' }, { label: 'Rejected' }],
  });
  const field = await post('/api/store_user_field', {
    name: `Status ${stamp}`,
    type: 'select',
    value_list_id: list.id,
  });
  const rights = ['view', 'upload', 'edit', 'delete', 'share'];
  const category = (name: string) =>
    post('/api/storeFolder', {
      name,
      fields: [{ field_id: field.id }],
      permissions: [{ user_id: staff.id, rights }],
    });
  const invoices = await category(`Invoices ${stamp}`);
  const archive = await category(`Archive ${stamp}`);
  return {
    field: `Status ${stamp}`,
    invoices: { id: invoices.id, name: `Invoices ${stamp}` },
    archive: { id: archive.id, name: `Archive ${stamp}` },
  };
}
