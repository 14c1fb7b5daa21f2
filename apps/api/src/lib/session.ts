import type { AccessType, LoginRole } from '@quire/contract';

// What a request knows about its caller. The session itself (tokens, expiry, revocation)
// belongs to modules/account/session.service.ts, which resolves it on every request.

export interface AuthContext {
  sessionId: string;
  userId: number;
  username: string;
  accessType: AccessType;
  /** The login role this session signed in with. */
  role: LoginRole;
  /** True while a second factor is needed (company or user 2FA) and not yet given. */
  twoFactorPending: boolean;
  expiresAt: Date;
}

/** `Authorization: Bearer <token>` -> token. */
export function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  return match?.[1] ?? null;
}
