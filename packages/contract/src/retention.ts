import { z } from 'zod';
import { ZId, ZIdParams, ZPage, ZPageQuery, ZText } from './common.js';
import { ZPersonRef } from './file.js';
import { endpoint } from './http.js';

// Retention and legal hold (our own, issue 27), a File Control area: File Control writers
// manage rules, holds and dispositions; the Auditor reads them.
// - A rule per category (inherited by its sub-categories unless they have their own): keep a
//   file N days, months or years from its upload, from a date field, or from the end of its
//   last workflow run; then a review by a named group, the trash, or a purge.
// - A legal hold on a file, a category (with its sub-categories) or a saved search (the files
//   it matched when the hold was set): while held nothing in it may be deleted, purged,
//   moved, versioned over or restored over, by anyone, through any call.
// - The daily `retention.scan` job lists the files whose period is over; a person approves
//   (the rule's action is carried out) or postpones each.

export const RETENTION_UNITS = ['days', 'months', 'years'] as const;
export const RETENTION_STARTS = ['upload', 'field_date', 'workflow_end'] as const;
export const RETENTION_ACTIONS = ['review', 'trash', 'purge'] as const;
export const LEGAL_HOLD_TARGETS = ['file', 'category', 'saved_view'] as const;
export const DISPOSITION_STATUSES = ['pending', 'postponed', 'approved'] as const;

export const ZRetentionUnit = z.enum(RETENTION_UNITS);
export const ZRetentionStart = z.enum(RETENTION_STARTS);
export const ZRetentionAction = z.enum(RETENTION_ACTIONS);
export const ZLegalHoldTarget = z.enum(LEGAL_HOLD_TARGETS);
export const ZDispositionStatus = z.enum(DISPOSITION_STATUSES);

/** A rule as set on a category. */
export const ZRetentionRuleBody = z
  .object({
    keep_for: z.coerce.number().int().min(1, 'Keep for at least 1').max(1000),
    unit: ZRetentionUnit,
    start_from: ZRetentionStart,
    /** The date metadata field the period counts from (start_from "field_date" only). */
    date_field_id: ZId.nullable().optional(),
    action: ZRetentionAction,
    /** The group that reviews (action "review" only). */
    review_group_id: ZId.nullable().optional(),
  })
  .superRefine((b, ctx) => {
    if (b.start_from === 'field_date' && !b.date_field_id)
      ctx.addIssue({
        code: 'custom',
        path: ['date_field_id'],
        message: 'Choose the date field it counts from',
      });
    if (b.start_from !== 'field_date' && b.date_field_id)
      ctx.addIssue({
        code: 'custom',
        path: ['date_field_id'],
        message: 'Only a rule counting from a date field names one',
      });
    if (b.action === 'review' && !b.review_group_id)
      ctx.addIssue({ code: 'custom', path: ['review_group_id'], message: 'Choose the group that reviews' });
    if (b.action !== 'review' && b.review_group_id)
      ctx.addIssue({ code: 'custom', path: ['review_group_id'], message: 'Only a review names a group' });
  });
export type TRetentionRuleBody = z.input<typeof ZRetentionRuleBody>;
export type TRetentionRuleInput = z.infer<typeof ZRetentionRuleBody>;

export const ZNamedRef = z.object({ id: z.number().int(), name: z.string() });

export const ZRetentionRule = z.object({
  id: z.number().int(),
  category: ZNamedRef,
  keep_for: z.number().int(),
  unit: ZRetentionUnit,
  start_from: ZRetentionStart,
  date_field: ZNamedRef.nullable(),
  action: ZRetentionAction,
  review_group: ZNamedRef.nullable(),
  /** The rule in words, as dispositions and audit events quote it. */
  summary: z.string(),
  updated_at: z.string(),
});
export type TRetentionRule = z.infer<typeof ZRetentionRule>;

/** A category's own rule, and the rule that holds for it (its own or its nearest ancestor's). */
export const ZCategoryRetention = z.object({
  own: ZRetentionRule.nullable(),
  effective: ZRetentionRule.nullable(),
  /** The ancestor whose rule holds, when it is not the category's own. */
  inherited_from: ZNamedRef.nullable(),
});

export const ZLegalHold = z.object({
  id: z.number().int(),
  target: ZLegalHoldTarget,
  /** The held file, category or saved view (null once it is gone). */
  target_id: z.number().int().nullable(),
  target_name: z.string(),
  /** How many files the hold covers now. */
  file_count: z.number().int(),
  reason: z.string(),
  set_by: ZPersonRef,
  set_at: z.string(),
  released_at: z.string().nullable(),
  released_by: ZPersonRef.nullable(),
  release_reason: z.string().nullable(),
});
export type TLegalHold = z.infer<typeof ZLegalHold>;

export const ZReason = ZText(500);

export const ZCreateLegalHoldBody = z.object({
  target: ZLegalHoldTarget,
  target_id: ZId,
  reason: ZReason,
});
export type TCreateLegalHoldBody = z.input<typeof ZCreateLegalHoldBody>;
export type TCreateLegalHoldInput = z.infer<typeof ZCreateLegalHoldBody>;

export const ZDisposition = z.object({
  id: z.number().int(),
  file: ZNamedRef,
  category: ZNamedRef.nullable(),
  rule_id: z.number().int().nullable(),
  rule_summary: z.string(),
  action: ZRetentionAction,
  review_group: ZNamedRef.nullable(),
  due_at: z.string(),
  status: ZDispositionStatus,
  postponed_until: z.string().nullable(),
  decided_by: ZPersonRef.nullable(),
  decided_at: z.string().nullable(),
  /** A legal hold on the file: approving a trash or purge is refused until it is released. */
  held: z.boolean(),
});
export type TDisposition = z.infer<typeof ZDisposition>;

export const DISPOSITIONS_PER_DECISION = 200;

export const ZDecideDispositionsBody = z
  .object({
    ids: z.array(ZId).min(1, 'Choose at least one').max(DISPOSITIONS_PER_DECISION),
    decision: z.enum(['approve', 'postpone']),
    /** Postpone by this many days (postpone only). */
    postpone_days: z.coerce.number().int().min(1).max(3650).optional(),
  })
  .superRefine((b, ctx) => {
    if (b.decision === 'postpone' && !b.postpone_days)
      ctx.addIssue({ code: 'custom', path: ['postpone_days'], message: 'Say by how many days' });
  });
export type TDecideDispositionsBody = z.input<typeof ZDecideDispositionsBody>;
export type TDecideDispositionsInput = z.infer<typeof ZDecideDispositionsBody>;

const fcRead = { area: 'fileControl', access: 'read' } as const;
const fcWrite = { area: 'fileControl', access: 'write' } as const;

export const retentionContract = {
  listRetentionRules: endpoint({
    method: 'GET',
    path: '/api/retention/rules',
    guard: fcRead,
    summary: 'The retention rules, by category name',
    response: z.object({ items: z.array(ZRetentionRule) }),
    extension: true,
  }),
  categoryRetention: endpoint({
    method: 'GET',
    path: '/api/retention/categories/{id}/rule',
    guard: fcRead,
    summary: "A category's own retention rule and the one that holds for it (inherited when it has none)",
    params: ZIdParams,
    response: ZCategoryRetention,
    extension: true,
  }),
  setRetentionRule: endpoint({
    method: 'PUT',
    path: '/api/retention/categories/{id}/rule',
    guard: fcWrite,
    summary: "Set a category's retention rule (its sub-categories inherit it unless they have their own)",
    params: ZIdParams,
    body: ZRetentionRuleBody,
    response: ZRetentionRule,
    extension: true,
  }),
  deleteRetentionRule: endpoint({
    method: 'DELETE',
    path: '/api/retention/categories/{id}/rule',
    guard: fcWrite,
    summary: "Remove a category's own retention rule (it then inherits its parent's, if any)",
    params: ZIdParams,
    response: z.object({ id: z.number().int() }),
    extension: true,
  }),
  listLegalHolds: endpoint({
    method: 'GET',
    path: '/api/retention/holds',
    guard: fcRead,
    summary: 'Legal holds, last set first: those in force (default), released, or all',
    query: ZPageQuery(20).extend({ status: z.enum(['active', 'released', 'all']).default('active') }),
    response: ZPage(ZLegalHold),
    extension: true,
  }),
  createLegalHold: endpoint({
    method: 'POST',
    path: '/api/retention/holds',
    guard: fcWrite,
    summary:
      'Put a file, a category (with its sub-categories) or a saved search (the files it matches now) on legal hold, saying why',
    body: ZCreateLegalHoldBody,
    response: ZLegalHold,
    extension: true,
  }),
  releaseLegalHold: endpoint({
    method: 'POST',
    path: '/api/retention/holds/{id}/release',
    guard: fcWrite,
    summary: 'Release a legal hold, saying why (audited)',
    params: ZIdParams,
    body: z.object({ reason: ZReason }),
    response: ZLegalHold,
    extension: true,
  }),
  listDispositions: endpoint({
    method: 'GET',
    path: '/api/retention/dispositions',
    guard: fcRead,
    summary:
      'Files whose retention period is over, soonest due first: pending (default), postponed or approved',
    query: ZPageQuery(50).extend({ status: ZDispositionStatus.default('pending') }),
    response: ZPage(ZDisposition),
    extension: true,
  }),
  scanDispositions: endpoint({
    method: 'POST',
    path: '/api/retention/dispositions/scan',
    guard: fcWrite,
    summary:
      'Run the daily retention scan now: list the files whose period is over, and bring back postponed ones whose date has come',
    response: z.object({ listed: z.number().int(), reopened: z.number().int() }),
    extension: true,
  }),
  decideDispositions: endpoint({
    method: 'POST',
    path: '/api/retention/dispositions/decide',
    guard: fcWrite,
    summary:
      "Approve (the rule's review, trash or purge is carried out) or postpone dispositions, one or many; all or nothing",
    body: ZDecideDispositionsBody,
    response: z.object({ items: z.array(ZDisposition) }),
    extension: true,
  }),
};
