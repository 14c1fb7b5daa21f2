import { z } from 'zod';
import { ZAccessType, ZLoginRole, ZNull, ZUser } from './common.js';
import { endpoint } from './http.js';

export const ZLoginBody = z.object({
  username: z.string().trim().min(1, 'Enter your username or e-mail').max(255),
  password: z.string().min(1, 'Enter your password').max(1024),
  role: ZLoginRole,
});

export const ZLoginData = z.object({
  access_token: z.string(),
  access_type: ZAccessType,
  accountType: z.enum(['Admin', 'User']),
  role: ZLoginRole,
  isCompany2FAEnabled: z.boolean(),
  isUser2FAEnabled: z.boolean(),
  user: ZUser,
});
export type TLoginData = z.infer<typeof ZLoginData>;

export const ZSessionState = z.object({
  active: z.literal(true),
  twoFactorVerified: z.boolean(),
  expires_at: z.string(),
});

export const authContract = {
  login: endpoint({
    method: 'POST',
    path: '/api/login',
    guard: 'public',
    summary: 'Sign in with username or e-mail, password and login role; returns a bearer token',
    body: ZLoginBody,
    response: ZLoginData,
  }),
  logout: endpoint({
    method: 'POST',
    path: '/api/logout',
    guard: 'session',
    summary: 'Sign out: the session token stops working at once',
    response: ZNull,
  }),
  checkSession: endpoint({
    method: 'GET',
    path: '/api/check-session',
    guard: 'session',
    summary: 'Whether the bearer token belongs to a live session',
    response: ZSessionState,
  }),
  currentUser: endpoint({
    method: 'GET',
    path: '/user/current/',
    guard: 'session',
    summary: 'The signed-in user',
    response: ZUser,
  }),
};
