import { contract } from '@quire/contract';
import type { FastifyRequest } from 'fastify';
import { afterReply } from '../../lib/background.js';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import * as account from '../account/account.service.js';
import * as clientErrors from './client-errors.service.js';
import * as passwords from './password-reset.service.js';
import * as registration from './registration.service.js';
import * as signIn from './sign-in.service.js';
import * as settings from './sign-in-settings.service.js';
import * as twoFactor from './two-factor.service.js';

/** One answer whether or not the address belongs to an account (no user enumeration). */
export const RESET_LINK_SENT =
  'If an account exists for that address, we have sent a link to reset the password.';
const VERIFICATION_LINK_SENT =
  'If an account waiting for verification exists for that address, we have sent a new verification link.';
export const REGISTERED = 'Thank you. Check your e-mail for the link that activates your account.';

const MINUTE = '1 minute';
const lower = (v: unknown) => String(v ?? '').toLowerCase();
const bodyField = (req: FastifyRequest, name: string) =>
  lower((req.body as Record<string, unknown> | null)?.[name]);
const paramField = (req: FastifyRequest, name: string) =>
  lower((req.params as Record<string, unknown> | null)?.[name]);
/** Per signed-in user (all their sessions together); per address without a session. */
const perUser = (req: FastifyRequest) => (req.auth ? `user:${req.auth.userId}` : `ip:${req.ip}`);

/** E-mails sent per address and e-mail per minute. */
const linkLimit = (key: (req: FastifyRequest) => string) => ({
  max: 5,
  timeWindow: MINUTE,
  keyGenerator: (req: FastifyRequest) => `${req.ip}|${key(req)}`,
});
/** Link tokens tried per address per minute. */
const tokenLimit = { max: 20, timeWindow: MINUTE };
/** 2FA codes tried per user per minute. */
const codeLimit = { max: 5, timeWindow: MINUTE, keyGenerator: perUser };

export const authModule = (deps: Deps) =>
  defineRoutes('auth', contract.auth, {
    login: {
      rateLimit: {
        max: deps.config.LOGIN_RATE_LIMIT,
        timeWindow: '1 minute',
        keyGenerator: (req) =>
          `${req.ip}|${String((req.body as { username?: unknown })?.username ?? '').toLowerCase()}`,
      },
      handler: async ({ body, req }) => ({
        message: 'Login successful',
        data: await signIn.login(deps, body, { ip: req.ip, userAgent: req.headers['user-agent'] }),
      }),
    },
    logout: async ({ auth: session, actor }) => {
      await signIn.logout(deps, session, actor);
      return { message: 'You have been signed out', data: null };
    },
    checkSession: async ({ auth: session }) => ({ data: signIn.sessionState(session) }),
    currentUser: async ({ auth: session }) => ({ data: await account.currentUser(deps, session) }),

    register: {
      rateLimit: { max: 10, timeWindow: MINUTE },
      handler: async ({ body, req, reply }) => {
        const prepared = await registration.prepareRegistration(deps, body);
        afterReply(deps.background, reply.raw, 'registration', () =>
          registration.completeRegistration(deps, prepared, req.ip),
        );
        return { message: REGISTERED, data: null };
      },
    },
    verifyEmail: {
      rateLimit: tokenLimit,
      handler: async ({ body, actor }) => ({
        message: 'Your e-mail address is confirmed. You can sign in now.',
        data: await registration.verifyEmail(deps, body, actor),
      }),
    },
    resendVerification: {
      rateLimit: linkLimit((req) => paramField(req, 'email')),
      handler: async ({ params, req, reply }) => {
        afterReply(deps.background, reply.raw, 'verification mail', () =>
          registration.sendVerificationMail(deps, params.email, req.ip),
        );
        return { message: VERIFICATION_LINK_SENT, data: null };
      },
    },
    emailIsValid: {
      // Per address: whether an e-mail has an account is worth guarding.
      rateLimit: { max: 10, timeWindow: MINUTE },
      handler: async ({ body }) => ({ data: await registration.emailValidity(deps, body.email) }),
    },
    forgotPassword: {
      rateLimit: linkLimit((req) => paramField(req, 'email')),
      handler: async ({ params, req, reply }) => {
        afterReply(deps.background, reply.raw, 'reset mail', () =>
          passwords.sendResetMail(deps, params.email, req.ip),
        );
        return { message: RESET_LINK_SENT, data: null };
      },
    },
    passwordEmail: {
      rateLimit: linkLimit((req) => bodyField(req, 'email')),
      handler: async ({ body, req, reply }) => {
        afterReply(deps.background, reply.raw, 'reset mail', () =>
          passwords.sendResetMail(deps, body.email, req.ip),
        );
        return { message: RESET_LINK_SENT, data: null };
      },
    },
    verifyResetToken: {
      rateLimit: tokenLimit,
      handler: async ({ body }) => ({ data: await passwords.checkResetToken(deps, body) }),
    },
    resetPassword: {
      rateLimit: tokenLimit,
      handler: async ({ body, actor }) => {
        await passwords.resetPassword(deps, body, actor);
        return { message: 'Your password has been reset. Sign in with the new password.', data: null };
      },
    },
    updatePassword: {
      rateLimit: { max: 10, timeWindow: MINUTE, keyGenerator: perUser },
      handler: async ({ body, auth: session, actor }) => {
        await account.changeOwnPassword(deps, session, actor, body);
        return { message: 'Your password has been changed', data: null };
      },
    },

    is2faEnabled: async ({ body, auth: session, actor }) => ({
      data: await twoFactor.twoFactorState(deps, session, actor, body),
    }),
    enable2fa: async ({ auth: session, actor }) => ({
      message: 'Scan the QR code with your authenticator app, then enter the code it shows',
      data: await twoFactor.startTwoFactorSetup(deps, session, actor),
    }),
    verify2fa: {
      rateLimit: codeLimit,
      handler: async ({ body, auth: session, actor }) => ({
        message: '2FA verified successfully!',
        data: await twoFactor.verifyTwoFactor(deps, session, actor, body.code),
      }),
    },
    disable2fa: {
      rateLimit: codeLimit,
      handler: async ({ body, auth: session, actor }) => ({
        message: 'Two-factor authentication is off',
        data: await twoFactor.disableTwoFactor(deps, session, actor, body),
      }),
    },
    verify2faRecovery: {
      rateLimit: codeLimit,
      handler: async ({ body, auth: session, actor }) => ({
        message: 'Signed in with a recovery code; it cannot be used again',
        data: await twoFactor.verifyRecoveryCode(deps, session, actor, body.recovery_code),
      }),
    },
    recoveryCodesLeft: async ({ auth: session }) => ({
      data: await twoFactor.recoveryCodeCount(deps, session),
    }),
    regenerateRecoveryCodes: {
      rateLimit: codeLimit,
      handler: async ({ body, auth: session, actor }) => ({
        message: 'New recovery codes made; the old ones no longer work',
        data: await twoFactor.regenerateRecoveryCodes(deps, session, actor, body),
      }),
    },
    clear2fa: async ({ body, auth: session, actor }) => {
      await twoFactor.clearTwoFactor(deps, session, actor, body?.user_id);
      return {
        message:
          body?.user_id === undefined
            ? 'The sign-in waiting for two-factor verification was cleared'
            : "The user's two-factor authentication was reset",
        data: null,
      };
    },

    logError: {
      bodyLimit: 16 * 1024,
      rateLimit: { max: 30, timeWindow: MINUTE },
      handler: async ({ body, req, actor }) => {
        const referer = req.headers.referer;
        await clientErrors.recordClientError(
          deps,
          {
            data: body.data,
            userId: req.auth?.userId ?? null,
            url: typeof referer === 'string' ? referer : null,
            userAgent: req.headers['user-agent'] ?? null,
            ip: req.ip,
          },
          actor,
        );
        return { message: 'The error was recorded', data: null };
      },
    },
    signInSettings: async () => ({ data: await settings.signInSettings(deps) }),
    registrationState: async () => ({ data: await settings.registrationState(deps) }),
    updateSignInSettings: async ({ body, actor }) => ({
      message: 'Sign-in settings saved',
      data: await settings.updateSignInSettings(deps, actor, body),
    }),
    clientErrors: async ({ query }) => ({
      data: await clientErrors.listClientErrors(deps, query.page, query.quantity),
    }),
  });
