import { z } from 'zod';
import { XLSX_MEDIA_TYPE, ZId, ZPageMeta, zLine } from './common.js';
import { endpoint } from './http.js';

// The audit trail (spec §7 "Audit"): every event of the product, who, what, when, from where
// and the object, in a tamper-evident hash chain (docs/decisions/015-audit-hash-chain.md).

/**
 * Every event type (the area, the spec's `type` filter) and its actions: the one list. The
 * API's `audit(tx, actor, { type, action, … })` only takes a pair from here, so a new event
 * is added here first (a free string does not compile), and the audit screen's filter
 * offers exactly these.
 */
export const AUDIT_EVENTS = {
  auth: [
    'login.success',
    'logout',
    'password.changed',
    'password.reset_requested',
    'password.reset',
    '2fa.setup_started',
    '2fa.enabled',
    '2fa.verified',
    '2fa.disabled',
    '2fa.session_cleared',
    '2fa.recovery_codes_issued',
    '2fa.recovery_used',
  ],
  security: [
    'access.unauthenticated',
    'access.denied',
    'access.not_found',
    'password.check_failed',
    '2fa.failed',
    '2fa.disable_failed',
    'user.registration_for_taken_email',
    'reauth.failed',
  ],
  user: [
    'user.created',
    'user.registered',
    'user.email_verified',
    'user.verification_resent',
    'user.updated',
    'user.activated',
    'user.deactivated',
    'user.deleted',
    'user.sign_in_unlocked',
    'password.reset_by_admin',
    'signature.updated',
    'session.ended_by_admin',
    '2fa.reset',
  ],
  group: ['group.created', 'group.updated', 'group.deleted'],
  email: ['email.settings_saved', 'email.test_sent', 'email.test_failed', 'email.job_deleted'],
  settings: [
    'company.require_2fa.on',
    'company.require_2fa.off',
    'company.self_registration.on',
    'company.self_registration.off',
    'authentication.created',
    'authentication.updated',
    'authentication.deleted',
  ],
  client: ['client_error.reported'],
  setup: [
    'company.updated',
    'company.logo_updated',
    'company.logo_removed',
    'company.background_updated',
    'company.background_removed',
  ],
  category: [
    'category.created',
    'category.updated',
    'category.moved',
    'category.duplicated',
    'category.deleted',
    'category.files_exported',
    'category_group.created',
    'category_group.updated',
    'category_group.deleted',
    'related_tag.added',
    'related_tag.updated',
    'related_tag.deleted',
  ],
  metadata: ['field.created', 'field.updated', 'field.deleted'],
  'value-list': ['value_list.created', 'value_list.updated', 'value_list.deleted'],
  file: [
    'file.uploaded',
    'file.indexed',
    'file.cancelled',
    'file.values_changed',
    'file.renamed',
    'file.moved',
    'file.viewed',
    'file.previewed',
    'file.downloaded',
    'file.exported',
    'file.version_added',
    'file.rolled_back',
    'file.locked',
    'file.unlocked',
    'file.lock_released',
    'file.checked_out',
    'file.checked_in',
    'file.check_out_released',
    'file.followed',
    'file.unfollowed',
    'file.favourited',
    'file.unfavourited',
    'file.commented',
    'file.attachment_added',
    'file.attachment_removed',
    'file.attachment_downloaded',
    'file.attachments_combined',
    'file.permissions_changed',
    'file.shared',
    'file.deleted',
    'file.restored',
    'file.purged',
    'share.unlocked',
    'share.downloaded',
    'share.previewed',
    'file.text_extracted',
    'file.text_extraction_failed',
    'file.text_not_extractable',
    'file.text_recognition_requested',
    'file.previews_made',
  ],
  notification: ['notification.read', 'notification.cleared'],
  workflow: [
    'workflow.created',
    'workflow.updated',
    'workflow.deleted',
    'workflow.metadata_updated',
    'workflow.step_created',
    'workflow.step_updated',
    'workflow.step_deleted',
    'workflow.step_metadata_updated',
    'workflow.step_defaults_updated',
    'workflow.assignees_updated',
    'workflow.assignee_deleted',
    'workflow.notification_created',
    'workflow.notification_updated',
    'workflow.notification_deleted',
    'workflow.condition_created',
    'workflow.condition_updated',
    'workflow.condition_deleted',
    'workflow.trigger_created',
    'workflow.trigger_updated',
    'workflow.trigger_deleted',
    'workflow.started',
    'workflow.not_started',
    'workflow.approved',
    'workflow.rejected',
    'workflow.moved',
    'workflow.cancelled',
    'workflow.triggered',
    'workflow.escalated',
  ],
  backup: [
    'backup.requested',
    'backup.created',
    'backup.schedule_saved',
    'backup.pruned',
    'backup.deleted',
    'backup.file_deleted',
    'backup.downloaded',
    'backup.uploaded',
    'backup.upload_refused',
    'backup.restore_requested',
    'backup.restored',
    'backup.restore_failed',
  ],
  licence: ['licence.installed', 'licence.refused'],
  search: ['search.reindexed'],
  'saved-view': ['saved_view.created', 'saved_view.updated', 'saved_view.deleted'],
  retention: [
    'retention.rule_set',
    'retention.rule_deleted',
    'retention.hold_set',
    'retention.hold_released',
    'retention.disposition_listed',
    'retention.disposition_approved',
    'retention.disposition_postponed',
  ],
  intake: [
    'intake.source_created',
    'intake.source_changed',
    'intake.source_deleted',
    'intake.rule_created',
    'intake.rule_changed',
    'intake.rule_deleted',
    'intake.rules_reordered',
    'intake.arrival_taken',
    'intake.arrival_failed',
    'intake.arrival_filed',
    'intake.arrival_retried',
    'intake.inbox_tested',
    'intake.inbox_test_failed',
  ],
  audit: ['audit.exported', 'audit.verified', 'audit.verify_failed', 'audit.chain_keyed'],
} as const;

export type AuditType = keyof typeof AUDIT_EVENTS;
export type AuditAction<T extends AuditType = AuditType> = (typeof AUDIT_EVENTS)[T][number];
export const AUDIT_TYPES = Object.keys(AUDIT_EVENTS) as AuditType[];

/** The screen's names for the event types. */
export const AUDIT_TYPE_LABELS: Record<AuditType, string> = {
  auth: 'Sign-in and account',
  security: 'Security (refusals)',
  user: 'Users',
  group: 'Groups',
  email: 'E-mail',
  settings: 'Settings',
  client: 'Client errors',
  setup: 'Company details',
  category: 'Categories',
  metadata: 'Metadata fields',
  'value-list': 'Value lists',
  file: 'Files',
  notification: 'Notifications',
  workflow: 'Workflows',
  backup: 'Backups',
  licence: 'Licence',
  search: 'Search',
  'saved-view': 'Saved views',
  retention: 'Retention and legal holds',
  intake: 'Intake (folders, inboxes)',
  audit: 'Audit trail',
};

/** A date (`2026-03-01`) or a date and time with its offset (`2026-03-01T00:00:00+01:00`). */
const ZDateOrTime = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/**
 * `dateRange`: `from,to` (either may be left empty). A date covers that whole day in UTC; a
 * time with an offset is exact (the web client sends the person's own day bounds). Parsed to
 * `{ from, to }` with `to` exclusive.
 */
export const ZDateRange = zLine()
  .trim()
  .max(80)
  .transform((value, ctx): { from: Date | null; to: Date | null } => {
    if (value === '') return { from: null, to: null };
    const parts = value.split(',').map((p) => p.trim());
    if (parts.length !== 2) {
      ctx.addIssue({ code: 'custom', message: 'Use two dates separated by a comma: from,to' });
      return z.NEVER;
    }
    const [from, to] = parts.map((p) => (p === '' ? null : p)) as [string | null, string | null];
    for (const p of [from, to]) {
      if (p !== null && !ZDateOrTime.safeParse(p).success) {
        ctx.addIssue({
          code: 'custom',
          message: `"${p}" is not a date (YYYY-MM-DD) or an ISO date and time`,
        });
        return z.NEVER;
      }
    }
    const start = from === null ? null : new Date(from.length === 10 ? `${from}T00:00:00Z` : from);
    const end = to === null ? null : new Date(to.length === 10 ? `${to}T00:00:00Z` : to);
    // A date as the end means the end of that day.
    if (end && to?.length === 10) end.setUTCDate(end.getUTCDate() + 1);
    if (start && end && start >= end) {
      ctx.addIssue({ code: 'custom', message: 'The start of the range must come before its end' });
      return z.NEVER;
    }
    return { from: start, to: end };
  });

export const ZAuditActivityQuery = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  quantity: z.coerce.number().int().min(1).max(500).default(20),
  user_id: ZId.optional(),
  type: z.enum(AUDIT_TYPES as [AuditType, ...AuditType[]]).optional(),
  dateRange: ZDateRange.optional(),
  search: zLine().trim().max(200).optional(),
  /**
   * Keyset paging (an extension of the spec's page): the `next_cursor` of the page before.
   * Deep pages are read from the index at once instead of counting past every newer event.
   */
  cursor: z.coerce.number().int().min(1).optional(),
});
export type TAuditActivityQuery = z.input<typeof ZAuditActivityQuery>;

export const ZAuditUser = z.object({ id: z.number().int(), username: z.string(), name: z.string() });

export const ZAuditEvent = z.object({
  id: z.number().int(),
  /** Its place in the chain (commit order). */
  seq: z.number().int(),
  created_at: z.string(),
  user: ZAuditUser.nullable(),
  type: z.string(),
  action: z.string(),
  message: z.string(),
  target_type: z.string().nullable(),
  target_id: z.string().nullable(),
  /** The address the call came from. */
  ip: z.string().nullable(),
  /** What the event recorded beyond its message (never secrets). */
  details: z.record(z.string(), z.unknown()).nullable(),
  /** Its place in the hash chain: `k1:` and an HMAC (keyed, decision 015), or a plain sha256 (older events). */
  hash: z.string(),
});
export type TAuditEvent = z.infer<typeof ZAuditEvent>;

export const ZAuditPage = ZPageMeta.extend({
  items: z.array(ZAuditEvent),
  /** False when more than `total` events match (counting stops at 10,000). */
  total_exact: z.boolean(),
  /** Pass as `cursor` for the next (older) page; null on the last one. */
  next_cursor: z.number().int().nullable(),
});
export type TAuditPage = z.infer<typeof ZAuditPage>;

/** The last verification of the chain and where its head is now. */
export const ZAuditChainStatus = z.object({
  head: z.object({ seq: z.number().int(), hash: z.string() }).nullable(),
  verification: z
    .object({
      ok: z.boolean(),
      checked: z.number().int(),
      started_at: z.string(),
      finished_at: z.string(),
      /** The head when it was verified. */
      head_seq: z.number().int(),
      /** What broke the chain first, in a sentence (null when it verified). */
      problem: z.string().nullable(),
      problem_seq: z.number().int().nullable(),
    })
    .nullable(),
  /** A verification is queued or running. */
  verifying: z.boolean(),
});
export type TAuditChainStatus = z.infer<typeof ZAuditChainStatus>;

export const ZAuditExportQuery = ZAuditActivityQuery.omit({ page: true, quantity: true, cursor: true });

/** Who may read the audit trail: the Settings readers (User Administration Admin, Auditor, Company Admin). */
const AUDIT_GUARD = { area: 'settings', access: 'read' } as const;

export const auditContract = {
  activity: endpoint({
    method: 'GET',
    path: '/api/audits/activity',
    guard: AUDIT_GUARD,
    summary:
      'The audit trail, newest first (chain order): who, what, when, from where and the object; filters combine',
    query: ZAuditActivityQuery,
    response: ZAuditPage,
  }),
  chainStatus: endpoint({
    method: 'GET',
    path: '/api/audits/chain',
    guard: AUDIT_GUARD,
    summary: 'Whether the hash chain verified at its last check, and its head now',
    response: ZAuditChainStatus,
    extension: true,
  }),
  verifyChain: endpoint({
    method: 'POST',
    path: '/api/audits/chain/verify',
    guard: AUDIT_GUARD,
    summary: 'Verify the whole hash chain now (queued on the job runner)',
    response: ZAuditChainStatus,
    extension: true,
  }),
  exportActivity: endpoint({
    method: 'GET',
    path: '/api/audits/export',
    guard: AUDIT_GUARD,
    summary: 'The filtered audit trail as an .xlsx workbook (at most 100,000 events; formulas made inert)',
    query: ZAuditExportQuery,
    produces: 'file',
    mediaType: XLSX_MEDIA_TYPE,
    extension: true,
  }),
};
