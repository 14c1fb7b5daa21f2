import type { TUser } from '@quire/contract';
import type { User } from '@quire/db';
import { accessTypeFromDb } from './access-types.js';

/** The columns a user is shown with. */
export type UserDtoFields = Pick<
  User,
  | 'id'
  | 'username'
  | 'email'
  | 'firstName'
  | 'lastName'
  | 'loginRole'
  | 'accessType'
  | 'status'
  | 'twoFactorEnabled'
  | 'createdAt'
>;

/** A user row as the API shows it: never the hash, never the 2FA secret. */
export function toUserDto(user: UserDtoFields): TUser {
  const name = `${user.firstName} ${user.lastName}`.trim() || user.username;
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    name,
    role: user.loginRole,
    access_type: accessTypeFromDb(user.accessType),
    status: user.status,
    is2FAEnabled: user.twoFactorEnabled,
    created_at: user.createdAt.toISOString(),
  };
}
