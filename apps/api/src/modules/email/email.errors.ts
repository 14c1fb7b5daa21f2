import { AppError, createError, refusedAt } from '../../lib/errors.js';
import { PRIVATE_HOST_MESSAGE } from './email.hosts.js';

export const emailNotConfigured = createError({
  code: 'email.not_configured',
  statusCode: 409,
  message: 'E-mail is not configured. Save the SMTP settings first.',
});

export const privateSmtpHost = () =>
  refusedAt(
    'email.private_host',
    'body.host',
    'The SMTP host is on this machine or a private network',
    PRIVATE_HOST_MESSAGE,
  );

/** The SMTP server did not take the test message: what happened, in our words (never the server's). */
export const testMailFailed = (reason: string) =>
  new AppError('email.send_failed', 502, `The test e-mail could not be sent: ${reason}`);

export const mailJobNotFound = createError({
  code: 'email.job_not_found',
  statusCode: 404,
  message: 'Mail job not found',
});

export const mailJobSending = createError({
  code: 'email.job_sending',
  statusCode: 409,
  message: 'This message is being sent right now. Try again in a moment.',
});
