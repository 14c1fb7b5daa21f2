import type { AccessType, LoginRole } from '@quire/contract';
import type { Db, UserStatus } from '@quire/db';
import type { FastifyInstance } from 'fastify';
import { accessTypeToDb } from '../src/lib/access-types.js';
import { hashPassword } from '../src/lib/passwords.js';

// Data factories shared by the tests and `pnpm db:seed`.

export const TEST_PASSWORD = 'Correct-Horse-Battery-9';
let passwordHash: Promise<string> | undefined;
let seq = 0;

export async function ensureCompany(db: Db) {
  return (await db.company.findFirst()) ?? (await db.company.create({ data: { name: 'Test Company' } }));
}

export interface UserOverrides {
  username?: string;
  email?: string;
  accessType?: AccessType;
  loginRole?: LoginRole;
  status?: UserStatus;
  firstName?: string;
  lastName?: string;
  password?: string;
}

/** A user of the given access type; login role admin unless General staff. */
export async function createUser(db: Db, o: UserOverrides = {}) {
  const company = await ensureCompany(db);
  const accessType = o.accessType ?? 'General staff';
  seq += 1;
  const username = (o.username ?? `user${seq}_${Date.now().toString(36)}`).toLowerCase();
  passwordHash ??= hashPassword(TEST_PASSWORD);
  return db.user.create({
    data: {
      companyId: company.id,
      username,
      email: (o.email ?? `${username}@example.test`).toLowerCase(),
      firstName: o.firstName ?? 'Test',
      lastName: o.lastName ?? `User ${seq}`,
      loginRole: o.loginRole ?? (accessType === 'General staff' ? 'user' : 'admin'),
      accessType: accessTypeToDb(accessType),
      status: o.status ?? 'active',
      passwordHash: o.password ? await hashPassword(o.password) : await passwordHash,
    },
  });
}

/** Signs in through the API and returns the bearer token. */
export async function loginAs(
  app: FastifyInstance,
  user: { username: string },
  role: LoginRole = 'admin',
  password = TEST_PASSWORD,
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { username: user.username, password, role },
  });
  if (res.statusCode !== 200)
    throw new Error(`login failed for ${user.username}: ${res.statusCode} ${res.body}`);
  return res.json().data.access_token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
