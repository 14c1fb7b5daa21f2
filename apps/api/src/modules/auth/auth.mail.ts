import type { OutgoingMail } from '../email/email.queue.js';

// The e-mails of the auth area. Text a user typed (a name) is put on one line, in quotes, cut
// short: it can never add lines, links of its own making or look like part of the message.
// A mail that may reach someone who never asked for it (registration) holds no typed text.

interface LinkContext {
  publicUrl: string;
}

/** User text as one short quoted line: line breaks, control and bidi characters become spaces. */
function quotedLine(text: string, max = 60): string {
  const line = text
    .replace(/[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return `"${line.length > max ? `${line.slice(0, max - 1)}…` : line}"`;
}

function linkUrl(ctx: LinkContext, page: string, token: string, email: string) {
  return `${ctx.publicUrl}/${page}?token=${encodeURIComponent(token)}&email=${encodeURIComponent(email)}`;
}

type Who = { email: string; username: string; firstName: string; lastName: string };

const nameOf = (user: Who) => `${user.firstName} ${user.lastName}`.trim() || user.username;

export function resetMail(ctx: LinkContext, user: Who, token: string): OutgoingMail {
  return {
    kind: 'password_reset',
    to: user.email,
    subject: 'Reset your Quire password',
    text: [
      'Hello,',
      '',
      `Someone (hopefully you) asked to reset the password of the Quire account ${quotedLine(nameOf(user))}.`,
      'Open this link within one hour to choose a new password:',
      '',
      linkUrl(ctx, 'reset-password', token, user.email),
      '',
      'If you did not ask for this, ignore this e-mail: your password stays the same.',
    ].join('\n'),
  };
}

export function verificationMail(ctx: LinkContext, user: Who, token: string): OutgoingMail {
  return {
    kind: 'email_verification',
    to: user.email,
    subject: 'Confirm your e-mail address for Quire',
    text: [
      'Hello,',
      '',
      `A Quire account with the username ${quotedLine(user.username)} was registered with this e-mail address.`,
      'Open this link within 24 hours to confirm the address and activate the account:',
      '',
      linkUrl(ctx, 'verify-email', token, user.email),
      '',
      'If you did not create an account, ignore this e-mail.',
    ].join('\n'),
  };
}

/** To an address that already has an account, when someone registers with it again. */
export function accountExistsMail(ctx: LinkContext, email: string, closed: boolean): OutgoingMail {
  return {
    kind: 'account_exists',
    to: email,
    subject: 'Your Quire account',
    text: [
      'Hello,',
      '',
      'Someone (hopefully you) tried to register a new Quire account with this e-mail address.',
      ...(closed
        ? ['This address belongs to an account that was closed. Ask your administrator if you need it again.']
        : [
            'This address already has an account, so no new one was created.',
            `Sign in at ${ctx.publicUrl}/login, or choose a new password at ${ctx.publicUrl}/forgot-password.`,
          ]),
      '',
      'If it was not you, ignore this e-mail: nothing has changed.',
    ].join('\n'),
  };
}

/** To the owner of an account when one of its two-factor recovery codes signed in. */
export function recoveryCodeUsedMail(ctx: LinkContext, user: Who, left: number): OutgoingMail {
  return {
    kind: 'two_factor_recovery_used',
    to: user.email,
    subject: 'A recovery code was used to sign in to Quire',
    text: [
      'Hello,',
      '',
      `Someone (hopefully you) signed in to the Quire account ${quotedLine(nameOf(user))} with a two-factor recovery code instead of the authenticator app.`,
      `That code is spent; ${left === 1 ? '1 recovery code is' : `${left} recovery codes are`} left.`,
      `You can make new codes in your profile: ${ctx.publicUrl}/profile`,
      '',
      'If it was not you, change your password at once and tell your administrator.',
    ].join('\n'),
  };
}
