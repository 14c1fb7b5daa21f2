import { z } from 'zod';
import {
  hasControlDeep,
  TEXT_MESSAGES,
  ZAccessType,
  ZId,
  ZLoginRole,
  ZNull,
  ZPage,
  ZPageQuery,
  ZPersonName,
  ZUser,
  ZUsername,
  zLine,
  zSecret,
} from './common.js';
import { endpoint } from './http.js';

export const ZLoginBody = z.object({
  username: zLine().trim().min(1, 'Enter your username or e-mail').max(255),
  password: zSecret().min(1, 'Enter your password').max(1024),
  role: ZLoginRole,
});
export type TLoginBody = z.infer<typeof ZLoginBody>;

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

/** An e-mail address as typed: trimmed, compared in lower case. */
export const ZEmail = zLine().trim().toLowerCase().max(254).pipe(z.email('Enter a valid e-mail address'));
export const ZEmailBody = z.object({ email: ZEmail });
export const ZEmailParams = z.object({ email: ZEmail });

/** A single-use link token from an e-mail (password reset, e-mail verification). */
export const ZLinkToken = zLine().trim().min(1, 'The link has no token').max(512);
export const ZEmailTokenBody = z.object({ email: ZEmail, token: ZLinkToken });
export type TEmailTokenBody = z.infer<typeof ZEmailTokenBody>;

/** A new password; the policy itself (`passwordProblems`) is checked by the API with the user's name. */
export const ZNewPassword = zSecret().min(1, 'Enter a password').max(1024);

export const ZResetPasswordBody = z.object({ email: ZEmail, password: ZNewPassword, token: ZLinkToken });
export type TResetPasswordBody = z.infer<typeof ZResetPasswordBody>;

export const ZUpdatePasswordBody = z
  .object({
    current_password: zSecret().min(1, 'Enter your current password').max(1024),
    new_password: ZNewPassword,
    password_confirmation: zSecret().max(1024).optional(),
  })
  .refine((b) => b.password_confirmation === undefined || b.password_confirmation === b.new_password, {
    path: ['password_confirmation'],
    message: 'The passwords do not match',
  });
export type TUpdatePasswordBody = z.infer<typeof ZUpdatePasswordBody>;

export const ZRegisterBody = z.object({
  username: ZUsername,
  email: ZEmail,
  password: ZNewPassword,
  first_name: ZPersonName.optional(),
  last_name: ZPersonName.optional(),
});
export type TRegisterBody = z.infer<typeof ZRegisterBody>;

export const ZEmailValidity = z.object({ valid: z.boolean(), available: z.boolean() });

/** A 6-digit code from an authenticator app. */
export const ZOtpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app');

export const ZTwoFactorState = z.object({ isCompany2FAEnabled: z.boolean(), isUser2FAEnabled: z.boolean() });
export type TTwoFactorState = z.infer<typeof ZTwoFactorState>;

export const ZSignInSettings = z.object({ require_2fa: z.boolean(), self_registration: z.boolean() });
export type TSignInSettings = z.infer<typeof ZSignInSettings>;
/** What the public pages may know of the sign-in settings: whether people may register. */
export const ZRegistrationState = z.object({ open: z.boolean() });
export type TRegistrationState = z.infer<typeof ZRegistrationState>;
export const ZSignInSettingsBody = ZSignInSettings.partial().refine((b) => Object.keys(b).length > 0, {
  message: 'Give require_2fa or self_registration',
});
export type TSignInSettingsBody = z.infer<typeof ZSignInSettingsBody>;

/** Optional: a Settings-write admin turns the company-wide 2FA requirement on or off. */
export const ZIs2faEnabledBody = z.object({ company_2fa: z.boolean().optional() }).nullish();

export const ZTwoFactorSetup = z.object({
  secret: z.string(),
  otpauth_url: z.string(),
  /** A PNG data URL of the otpauth URL, for the authenticator app to scan. */
  qr_code: z.string(),
});

export const ZVerify2faBody = z.object({ code: ZOtpCode });
export const ZVerify2faData = ZTwoFactorState.extend({
  verified: z.literal(true),
  /**
   * Extension: present once, in the answer that turns 2FA on: ten single-use recovery codes,
   * each signing in once in place of a code when the authenticator is lost. Stored hashed.
   */
  recovery_codes: z.array(z.string()).optional(),
});

/** A recovery code as shown (`abcde-23456`); spaces, dashes and case do not matter. */
export const ZRecoveryCodeBody = z.object({
  recovery_code: zLine()
    .trim()
    .min(1, 'Enter one of your recovery codes')
    .max(64, 'That is not one of your recovery codes'),
});
export const ZRecoveryCodeSignIn = ZVerify2faData.extend({ remaining_recovery_codes: z.number().int() });
export const ZRecoveryCodesLeft = z.object({ remaining: z.number().int() });
export const ZRecoveryCodesIssued = z.object({
  recovery_codes: z.array(z.string()),
  remaining: z.number().int(),
});

/** Either a current code or the account password. */
export const ZDisable2faBody = z
  .object({ code: ZOtpCode.optional(), password: zSecret().min(1).max(1024).optional() })
  .refine((b) => b.code !== undefined || b.password !== undefined, {
    path: ['code'],
    message: 'Enter a code from your authenticator app or your password',
  });
export type TDisable2faBody = z.infer<typeof ZDisable2faBody>;

/** Without user_id: give up the half-signed-in session; with it: an admin resets that user's 2FA. */
export const ZClear2faBody = z.object({ user_id: ZId.optional() }).nullish();

/** What the web client reports about one of its errors. */
export const ZLogErrorBody = z.object({
  data: z
    .unknown()
    .refine((v) => v !== undefined && v !== null, 'Required')
    .refine((v) => !hasControlDeep(v), TEXT_MESSAGES.control),
});

export const ZClientError = z.object({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  username: z.string().nullable(),
  message: z.string(),
  data: z.unknown(),
  url: z.string().nullable(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: z.string(),
});
export type TClientError = z.infer<typeof ZClientError>;

const linkSent =
  'the same answer, in the same time, whether or not the e-mail belongs to an account (the mail is prepared after the answer)';

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
    guard: 'signedIn',
    summary: 'The signed-in user',
    response: ZUser,
  }),
  register: endpoint({
    method: 'POST',
    path: '/account/register',
    guard: 'public',
    summary:
      'Register a General staff account (only when the company allows self-registration). A taken username is a 400; for an e-mail that already has an account the answer is the same as for a new one and that address gets a mail instead. The account stays deactivated until the e-mail link is followed',
    body: ZRegisterBody,
    response: ZNull,
  }),
  verifyEmail: endpoint({
    method: 'POST',
    path: '/account/verify-email',
    guard: 'public',
    extension: true,
    summary: 'Follow the e-mail verification link: activates the self-registered account',
    body: ZEmailTokenBody,
    response: z.object({ verified: z.literal(true) }),
  }),
  resendVerification: endpoint({
    method: 'GET',
    path: '/account/resend-verification/{email}',
    guard: 'public',
    summary: `Send the e-mail verification link again; ${linkSent}`,
    params: ZEmailParams,
    response: ZNull,
  }),
  emailIsValid: endpoint({
    method: 'POST',
    path: '/account/email/is-valid',
    guard: 'public',
    reads: true,
    summary:
      'Whether an e-mail address is well-formed (register form); `available` equals `valid`: whether an address has an account is never told',
    body: z.object({ email: zLine().trim().max(320) }),
    response: ZEmailValidity,
  }),
  registrationState: endpoint({
    method: 'GET',
    path: '/account/registration',
    guard: 'public',
    extension: true,
    summary:
      'Whether people may create their own account (the sign-in page offers "Create an account" only then); answered to anyone',
    response: ZRegistrationState,
  }),
  forgotPassword: endpoint({
    method: 'GET',
    path: '/account/forgot-password/{email}',
    guard: 'public',
    summary: `Send a password reset link; ${linkSent}`,
    params: ZEmailParams,
    response: ZNull,
  }),
  passwordEmail: endpoint({
    method: 'POST',
    path: '/account/password/email',
    guard: 'public',
    summary: `Send a password reset link; ${linkSent}`,
    body: ZEmailBody,
    response: ZNull,
  }),
  verifyResetToken: endpoint({
    method: 'POST',
    path: '/account/password/verify-token',
    guard: 'public',
    reads: true,
    summary: 'Whether a password reset link is still valid (unused, unexpired, for that e-mail)',
    body: ZEmailTokenBody,
    response: z.object({ valid: z.literal(true) }),
  }),
  resetPassword: endpoint({
    method: 'POST',
    path: '/account/reset-password',
    guard: 'public',
    summary: 'Set a new password with a reset link; the link is spent and every session of the user ends',
    body: ZResetPasswordBody,
    response: ZNull,
  }),
  updatePassword: endpoint({
    method: 'PUT',
    path: '/account/updatepassword',
    guard: 'signedIn',
    summary: "Change one's own password; the user's other sessions end",
    body: ZUpdatePasswordBody,
    response: ZNull,
  }),
  is2faEnabled: endpoint({
    method: 'POST',
    path: '/api/users/is2faenabled',
    guard: 'session',
    summary:
      'Whether the company and the signed-in user use 2FA; with company_2fa a Settings-write admin sets the company requirement',
    body: ZIs2faEnabledBody,
    response: ZTwoFactorState,
  }),
  enable2fa: endpoint({
    method: 'POST',
    path: '/api/users/enable2fa',
    guard: 'session',
    summary: 'Start 2FA setup: a new TOTP secret with its otpauth URL and QR code (active once verified)',
    response: ZTwoFactorSetup,
  }),
  verify2fa: endpoint({
    method: 'POST',
    path: '/api/users/verify2fa',
    guard: 'session',
    summary: "Check a 6-digit code: turns the user's 2FA on and completes this session's sign-in",
    body: ZVerify2faBody,
    response: ZVerify2faData,
  }),
  disable2fa: endpoint({
    method: 'POST',
    path: '/api/users/disable2fa',
    guard: 'signedIn',
    summary:
      "Turn one's own 2FA off with a current code or the password (not while the company requires 2FA)",
    body: ZDisable2faBody,
    response: ZTwoFactorState,
  }),
  verify2faRecovery: endpoint({
    method: 'POST',
    path: '/api/users/verify2fa-recovery',
    guard: 'session',
    extension: true,
    summary:
      "Complete this session's sign-in with a recovery code instead of a 6-digit code; the code is spent (audited, the user is told by e-mail)",
    body: ZRecoveryCodeBody,
    response: ZRecoveryCodeSignIn,
  }),
  recoveryCodesLeft: endpoint({
    method: 'GET',
    path: '/api/users/2fa-recovery-codes',
    guard: 'signedIn',
    extension: true,
    summary: 'How many of your recovery codes are left unused',
    response: ZRecoveryCodesLeft,
  }),
  regenerateRecoveryCodes: endpoint({
    method: 'POST',
    path: '/api/users/2fa-recovery-codes',
    guard: 'signedIn',
    extension: true,
    summary:
      'Ten new recovery codes (shown once) with a current code or the password; the old ones stop working',
    body: ZDisable2faBody,
    response: ZRecoveryCodesIssued,
  }),
  clear2fa: endpoint({
    method: 'POST',
    path: '/api/users/clear2fa',
    guard: 'session',
    summary:
      "Without user_id: end this half-signed-in session; with user_id: a Settings-write admin resets that user's 2FA",
    body: ZClear2faBody,
    response: ZNull,
  }),
  logError: endpoint({
    method: 'POST',
    path: '/v1/log/error',
    guard: 'public',
    summary: 'The web client reports one of its errors (the user is recorded when a valid token is sent)',
    body: ZLogErrorBody,
    response: ZNull,
  }),
  clientErrors: endpoint({
    method: 'GET',
    path: '/api/client-errors',
    guard: { area: 'settings', access: 'read' },
    extension: true,
    summary: 'Errors reported by web clients, newest first',
    query: ZPageQuery(20),
    response: ZPage(ZClientError),
  }),
  signInSettings: endpoint({
    method: 'GET',
    path: '/api/sign-in-settings',
    guard: { area: 'settings', access: 'read' },
    extension: true,
    summary: 'Company-wide sign-in settings: 2FA required for everyone, self-registration',
    response: ZSignInSettings,
  }),
  updateSignInSettings: endpoint({
    method: 'PUT',
    path: '/api/sign-in-settings',
    guard: { area: 'settings', access: 'write' },
    extension: true,
    summary: 'Require 2FA for everyone, and turn self-registration on or off',
    body: ZSignInSettingsBody,
    response: ZSignInSettings,
  }),
};
