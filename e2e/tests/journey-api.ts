// Calls the journeys make straight to the API (as the seeded admin), outside the browser.
import { type APIRequestContext, expect } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config.js';

export async function adminToken(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/login', { data: { ...E2E_ADMIN, role: 'admin' } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data.access_token as string;
}

export interface JourneyUser {
  username: string;
  email: string;
  password: string;
}

/** A new General staff user (login role user), created by the admin through the API. */
export async function createGeneralStaff(
  request: APIRequestContext,
  token: string,
  prefix: string,
): Promise<JourneyUser> {
  const suffix = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const user = {
    username: `${prefix}-${suffix}`,
    email: `${prefix}-${suffix}@example.test`,
    password: 'Journey-Start-Phrase-42',
  };
  const response = await request.post('/api/users/createUser', {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      ...user,
      first_name: 'Journey',
      last_name: prefix,
      role: 'user',
      access_type: 'General staff',
    },
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
  return user;
}
