import { z } from 'zod';
import { ZIdParams, ZNull, ZPage, ZPageQuery, zLine, zSecret } from './common.js';
import { endpoint } from './http.js';

export const SMTP_SECURITY = ['none', 'starttls', 'tls'] as const;
export const ZSmtpSecurity = z.enum(SMTP_SECURITY);

export const MAIL_STATUSES = ['queued', 'sending', 'sent', 'failed'] as const;
export const ZMailStatus = z.enum(MAIL_STATUSES);

/** The saved SMTP settings as every call shows them: never the password. */
export const ZEmailSetup = z.object({
  host: z.string(),
  port: z.number().int(),
  security: ZSmtpSecurity,
  username: z.string().nullable(),
  from_address: z.string(),
  from_name: z.string(),
  /** Whether a password is stored (it is never sent back). */
  has_password: z.boolean(),
  updated_at: z.string(),
});
export type TEmailSetup = z.infer<typeof ZEmailSetup>;

/** An e-mail address, trimmed before it is checked. */
const ZEmailAddress = (message: string) => zLine().trim().max(255).pipe(z.email(message));

const PORT_MESSAGE = 'Enter a port between 1 and 65535';

export const ZEmailSetupBody = z.object({
  host: zLine()
    .trim()
    .min(1, 'Enter the SMTP host')
    .max(255)
    .regex(
      // An empty host is left to min(1), so it gets one message.
      /^$|^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*|[0-9a-f:]+)$/i,
      {
        message: 'Enter a host name or IP address, such as smtp.example.com',
      },
    ),
  port: z.number().int(PORT_MESSAGE).min(1, PORT_MESSAGE).max(65535, PORT_MESSAGE),
  security: ZSmtpSecurity,
  /** Empty or absent: no SMTP authentication. */
  username: zLine().trim().max(255).optional(),
  /** Absent: keep the stored password. Empty string: clear it. */
  password: zSecret().max(1024).optional(),
  from_address: ZEmailAddress('Enter a valid sender e-mail address'),
  /** Absent or empty: "Quire". */
  from_name: zLine().trim().max(255).optional(),
});
export type TEmailSetupBody = z.infer<typeof ZEmailSetupBody>;

export const ZEmailTestBody = z.object({
  to: ZEmailAddress('Enter a valid e-mail address'),
});

/** What the SMTP server said when it accepted the test message. */
export const ZEmailTestResult = z.object({
  job_id: z.number().int(),
  message_id: z.string().nullable(),
  response: z.string().nullable(),
});

/** One row of the outgoing mail queue. */
export const ZMailJob = z.object({
  id: z.number().int(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  status: ZMailStatus,
  attempts: z.number().int(),
  max_attempts: z.number().int(),
  last_error: z.string().nullable(),
  run_at: z.string(),
  sent_at: z.string().nullable(),
  created_at: z.string(),
});
export type TMailJob = z.infer<typeof ZMailJob>;

export const ZMailQueueQuery = ZPageQuery(20).extend({
  status: ZMailStatus.optional(),
});

export const emailContract = {
  setup: endpoint({
    method: 'GET',
    path: '/api/email_setup',
    guard: { area: 'settings', access: 'read' },
    summary: 'The saved SMTP settings (never the password), or null when e-mail is not configured',
    response: ZEmailSetup.nullable(),
  }),
  saveSetup: endpoint({
    method: 'POST',
    path: '/api/email/setup',
    guard: { area: 'settings', access: 'write' },
    summary: 'Save the SMTP settings; an omitted password keeps the stored one, an empty one clears it',
    body: ZEmailSetupBody,
    response: ZEmailSetup,
  }),
  test: endpoint({
    method: 'POST',
    path: '/api/email/test',
    guard: { area: 'settings', access: 'write' },
    upstream: true,
    summary:
      'Send a test message now through the saved settings: 200 when the SMTP server accepted it, 502 with its error otherwise, 400 when e-mail is not configured',
    body: ZEmailTestBody,
    response: ZEmailTestResult,
  }),
  notifications: endpoint({
    method: 'GET',
    path: '/api/email/notification',
    guard: { area: 'settings', access: 'read' },
    summary: 'The outgoing mail queue, newest first (default 20 a page), optionally filtered by status',
    query: ZMailQueueQuery,
    response: ZPage(ZMailJob),
  }),
  deleteJob: endpoint({
    method: 'POST',
    path: '/api/email/job/delete/{id}',
    guard: { area: 'settings', access: 'write' },
    summary: 'Delete a queued, sent or failed mail job (409 while it is being sent, 404 when unknown)',
    params: ZIdParams,
    response: ZNull,
  }),
};
