import { z } from 'zod';
import { ZId, ZIdParams, ZPage, ZPageQuery, ZText, zLine, zSecret } from './common.js';
import { ZFieldValueInput } from './file.js';
import { endpoint } from './http.js';

// Intake without the browser (our own, issue 28), a File Control area: File Control writers
// set up sources and rules; the Auditor reads them.
// - A source is a watched folder on the server or an IMAP inbox, bound to a category and an
//   owner: what arrives there is uploaded as that owner (type read from the bytes, hashed,
//   size-limited, its text extracted) and indexed into the category, or left unindexed for
//   the owner or for every member of a group (who may each index or drop it).
// - Rules, tried in order, file what arrives: the first whose conditions all hold sets the
//   category, metadata values and tags, and starts a workflow.
// - Every arrival is a row (taken or failed, with its reason) and an audit event naming its
//   source; a source never takes the same thing twice.

export const INTAKE_SOURCE_KINDS = ['folder', 'imap'] as const;
export const INTAKE_FILE_AS = ['indexed', 'unindexed'] as const;
export const INTAKE_SOURCE_STATES = ['idle', 'running', 'error'] as const;
export const INTAKE_ARRIVAL_STATUSES = ['taken', 'failed'] as const;
export const IMAP_AFTER_TAKE = ['mark', 'move'] as const;

export const ZIntakeSourceKind = z.enum(INTAKE_SOURCE_KINDS);
export const ZIntakeFileAs = z.enum(INTAKE_FILE_AS);
export const ZIntakeSourceState = z.enum(INTAKE_SOURCE_STATES);
export const ZIntakeArrivalStatus = z.enum(INTAKE_ARRIVAL_STATUSES);

/** How many arrivals a dry run tries the rules on. */
export const DRY_RUN_ARRIVALS = 50;
/** At most this many rules (they are tried on every arrival). */
export const MAX_INTAKE_RULES = 200;

const ZRef = z.object({ id: z.number().int(), name: z.string() });

/** A watched folder: an absolute path on the server. */
export const ZFolderSettings = z.object({
  path: zLine()
    .trim()
    .min(1, 'Required')
    .max(1024)
    .refine((p) => p.startsWith('/'), 'Give an absolute path on the server (starting with /)'),
  /** Files in a sub-folder go to the sub-category of the same name (when there is one). */
  subfolders: z.boolean().default(false),
});
export type TFolderSettings = z.infer<typeof ZFolderSettings>;

const ZImapCommon = z.object({
  host: zLine().trim().min(1, 'Required').max(255),
  port: z.coerce.number().int().min(1).max(65535).default(993),
  /** Implicit TLS (993); false: STARTTLS where offered. */
  tls: z.boolean().default(true),
  user: zLine().trim().min(1, 'Required').max(255),
  mailbox: zLine().trim().min(1).max(255).default('INBOX'),
  /** Only messages whose sender contains this (case-insensitive). */
  sender_filter: zLine().trim().max(255).default(''),
  /** Only messages whose subject contains this (case-insensitive). */
  subject_filter: zLine().trim().max(255).default(''),
  /** After taking a message: mark it seen, or move it to `move_to`. */
  after_take: z.enum(IMAP_AFTER_TAKE).default('mark'),
  move_to: zLine().trim().max(255).default(''),
  /** Take the message itself too, as an .eml file. */
  take_message: z.boolean().default(false),
  /**
   * A certificate (PEM) to trust for this server besides the system's: a company's own CA, or
   * the server's self-signed certificate. Empty: the system's trust only.
   */
  ca_certificate: z
    .string()
    .trim()
    .max(65_536)
    .refine(
      (v) => v === '' || /^-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----$/.test(v),
      'Paste a certificate in PEM form (-----BEGIN CERTIFICATE----- …)',
    )
    .default(''),
});

/** An IMAP inbox as written: the password is absent to keep the stored one. */
export const ZImapSettingsBody = ZImapCommon.extend({
  password: zSecret().max(1024).optional(),
});
export type TImapSettingsBody = z.input<typeof ZImapSettingsBody>;

/**
 * "Test connection": the inbox's settings as on the form; without a password, the stored one
 * of `source_id` (only while host, port, TLS and user are the ones it was given for).
 */
export const ZImapTestBody = z.object({
  source_id: ZId.optional(),
  settings: ZImapSettingsBody,
});
export type TImapTestBody = z.input<typeof ZImapTestBody>;

/** What a connection test found. */
export const ZImapTestResult = z.object({
  mailbox: z.string(),
  /** Messages in the mailbox now. */
  messages: z.number().int(),
  /** Whether the server offers IDLE (new mail is then taken within seconds, not a minute). */
  idle: z.boolean(),
});
export type TImapTestResult = z.infer<typeof ZImapTestResult>;

/** An IMAP inbox as shown: never the password. */
export const ZImapSettings = ZImapCommon.extend({ has_password: z.boolean() });
export type TImapSettings = z.infer<typeof ZImapSettings>;

const ZSourceCommon = z.object({
  name: ZText(100),
  enabled: z.boolean().default(true),
  /** Where what arrives is filed when no rule says otherwise. */
  category_id: ZId,
  /** Indexed at once into the category, or left unindexed for the owner (or a group). */
  file_as: ZIntakeFileAs.default('indexed'),
  /** Whose files they become. */
  owner_id: ZId,
  /** Left unindexed for every member of this group (each may index or drop it); null: the owner. */
  unindexed_group_id: ZId.nullable().default(null),
});

function checkUnindexedFor(b: { file_as: string; unindexed_group_id: number | null }, ctx: z.RefinementCtx) {
  if (b.file_as === 'indexed' && b.unindexed_group_id !== null)
    ctx.addIssue({
      code: 'custom',
      path: ['unindexed_group_id'],
      message: 'Only files left unindexed are left for a group',
    });
}

function checkImapMove(settings: { after_take: string; move_to: string }, ctx: z.RefinementCtx) {
  if (settings.after_take === 'move' && !settings.move_to)
    ctx.addIssue({ code: 'custom', path: ['settings', 'move_to'], message: 'Name the folder to move it to' });
}

export const ZIntakeSourceBody = z
  .discriminatedUnion('kind', [
    ZSourceCommon.extend({ kind: z.literal('folder'), settings: ZFolderSettings }),
    ZSourceCommon.extend({ kind: z.literal('imap'), settings: ZImapSettingsBody }),
  ])
  .superRefine((b, ctx) => {
    checkUnindexedFor(b, ctx);
    if (b.kind === 'imap') checkImapMove(b.settings, ctx);
  });
export type TIntakeSourceBody = z.input<typeof ZIntakeSourceBody>;
export type TIntakeSourceInput = z.infer<typeof ZIntakeSourceBody>;

const ZSourceShown = z.object({
  id: z.number().int(),
  name: z.string(),
  enabled: z.boolean(),
  category: ZRef,
  file_as: ZIntakeFileAs,
  owner: z.object({ id: z.number().int(), username: z.string() }),
  /** The group its files are left unindexed for (null: the owner, or indexed). */
  unindexed_group: ZRef.nullable(),
  state: ZIntakeSourceState,
  last_error: z.string().nullable(),
  last_run_at: z.string().nullable(),
  taken_count: z.number().int(),
  failed_count: z.number().int(),
  updated_at: z.string(),
});

export const ZIntakeSource = z.discriminatedUnion('kind', [
  ZSourceShown.extend({ kind: z.literal('folder'), settings: ZFolderSettings }),
  ZSourceShown.extend({ kind: z.literal('imap'), settings: ZImapSettings }),
]);
export type TIntakeSource = z.infer<typeof ZIntakeSource>;

/** A file-name glob: `*` any run of characters, `?` one; no path separators. */
const ZGlob = zLine()
  .trim()
  .max(255)
  .refine((g) => !/[/\\]/.test(g), 'A file name has no / or \\');

export const ZIntakeRuleBody = z
  .object({
    name: ZText(100),
    enabled: z.boolean().default(true),
    /** Conditions (all must hold; an empty one holds). From one of these sources (none: any). */
    source_ids: z.array(ZId).max(100).default([]),
    sender_contains: zLine().trim().max(255).default(''),
    name_glob: ZGlob.default(''),
    /** Every one of these words is in the file's text (read once its text is extracted). */
    text_words: z.array(zLine().trim().min(1).max(100)).max(20).default([]),
    /** Actions. File into this category (null: the source's). */
    category_id: ZId.nullable().default(null),
    values: z.array(ZFieldValueInput).max(100).default([]),
    /** Tags of the category it files into. */
    tag_ids: z.array(ZId).max(100).default([]),
    workflow_id: ZId.nullable().default(null),
    /** Leave the file unindexed for this person (made its owner), rather than index it. */
    unindexed_user_id: ZId.nullable().default(null),
    /** Leave the file unindexed for every member of this group, rather than index it. */
    unindexed_group_id: ZId.nullable().default(null),
  })
  .superRefine((b, ctx) => {
    if (b.unindexed_user_id !== null && b.unindexed_group_id !== null)
      ctx.addIssue({
        code: 'custom',
        path: ['unindexed_group_id'],
        message: 'Leave it for a person or for a group, not both',
      });
  });
export type TIntakeRuleBody = z.input<typeof ZIntakeRuleBody>;
export type TIntakeRuleInput = z.infer<typeof ZIntakeRuleBody>;

export const ZIntakeRule = z.object({
  id: z.number().int(),
  name: z.string(),
  position: z.number().int(),
  enabled: z.boolean(),
  source_ids: z.array(z.number().int()),
  sender_contains: z.string(),
  name_glob: z.string(),
  text_words: z.array(z.string()),
  category: ZRef.nullable(),
  values: z.array(z.object({ field_id: z.number().int(), value: ZFieldValueInput.shape.value })),
  tag_ids: z.array(z.number().int()),
  workflow: ZRef.nullable(),
  /** Whom it leaves the file unindexed for (both null: it indexes it). */
  unindexed_user: z.object({ id: z.number().int(), username: z.string() }).nullable(),
  unindexed_group: ZRef.nullable(),
  /** The rule in words, as the screen and the arrivals show it. */
  summary: z.string(),
  updated_at: z.string(),
});
export type TIntakeRule = z.infer<typeof ZIntakeRule>;

export const ZIntakeArrival = z.object({
  id: z.number().int(),
  source: ZRef.extend({ kind: ZIntakeSourceKind }).nullable(),
  status: ZIntakeArrivalStatus,
  reason: z.string().nullable(),
  file_name: z.string(),
  size: z.number().nullable(),
  /** The file it became (null: it failed, or the file was purged). */
  file: ZRef.nullable(),
  /** The rule that filed it (null: none matched, or not yet applied). */
  rule: z.object({ id: z.number().int().nullable(), name: z.string() }).nullable(),
  /** Whether the rules have been applied (they wait for the text when a rule reads it). */
  ruled: z.boolean(),
  sender: z.string().nullable(),
  subject: z.string().nullable(),
  created_at: z.string(),
});
export type TIntakeArrival = z.infer<typeof ZIntakeArrival>;

/** What the rules, as they are now, would do to one recent arrival. */
export const ZDryRunRow = z.object({
  arrival: ZIntakeArrival,
  /** The first rule that matches (null: none; the source's own filing holds). */
  rule: ZRef.nullable(),
  category: ZRef.nullable(),
  values: z.number().int(),
  tags: z.number().int(),
  workflow: ZRef.nullable(),
  /** Whom the rule would leave the file unindexed for (both null: it would index it). */
  unindexed_user: ZIntakeRule.shape.unindexed_user,
  unindexed_group: ZIntakeRule.shape.unindexed_group,
  /** A rule reads words of the text, and the file has none (yet): it is not known. */
  text_unknown: z.boolean(),
});
export type TDryRunRow = z.infer<typeof ZDryRunRow>;

const fcRead = { area: 'fileControl', access: 'read' } as const;
const fcWrite = { area: 'fileControl', access: 'write' } as const;

export const intakeContract = {
  listIntakeSources: endpoint({
    method: 'GET',
    path: '/api/intake/sources',
    guard: fcRead,
    summary: 'Intake sources (watched folders, e-mail inboxes) with their state, last error and counts',
    response: z.object({ items: z.array(ZIntakeSource) }),
    extension: true,
  }),
  createIntakeSource: endpoint({
    method: 'POST',
    path: '/api/intake/sources',
    guard: fcWrite,
    summary:
      'Add an intake source: a folder on the server or an IMAP inbox, bound to a category and an owner',
    body: ZIntakeSourceBody,
    response: ZIntakeSource,
    extension: true,
  }),
  updateIntakeSource: endpoint({
    method: 'PUT',
    path: '/api/intake/sources/{id}',
    guard: fcWrite,
    summary: 'Change an intake source (an omitted IMAP password keeps the stored one)',
    params: ZIdParams,
    body: ZIntakeSourceBody,
    response: ZIntakeSource,
    extension: true,
  }),
  deleteIntakeSource: endpoint({
    method: 'DELETE',
    path: '/api/intake/sources/{id}',
    guard: fcWrite,
    summary: 'Remove an intake source and its arrivals list (the files it took stay)',
    params: ZIdParams,
    response: z.object({ id: z.number().int() }),
    extension: true,
  }),
  listIntakeRules: endpoint({
    method: 'GET',
    path: '/api/intake/rules',
    guard: fcRead,
    summary: 'Intake rules, in the order they are tried',
    response: z.object({ items: z.array(ZIntakeRule) }),
    extension: true,
  }),
  createIntakeRule: endpoint({
    method: 'POST',
    path: '/api/intake/rules',
    guard: fcWrite,
    summary: 'Add an intake rule (tried after the others)',
    body: ZIntakeRuleBody,
    response: ZIntakeRule,
    extension: true,
  }),
  updateIntakeRule: endpoint({
    method: 'PUT',
    path: '/api/intake/rules/{id}',
    guard: fcWrite,
    summary: 'Change an intake rule',
    params: ZIdParams,
    body: ZIntakeRuleBody,
    response: ZIntakeRule,
    extension: true,
  }),
  deleteIntakeRule: endpoint({
    method: 'DELETE',
    path: '/api/intake/rules/{id}',
    guard: fcWrite,
    summary: 'Remove an intake rule',
    params: ZIdParams,
    response: z.object({ id: z.number().int() }),
    extension: true,
  }),
  reorderIntakeRules: endpoint({
    method: 'PUT',
    path: '/api/intake/rules-order',
    guard: fcWrite,
    summary: 'Set the order the intake rules are tried in (every rule, once)',
    body: z.object({ ids: z.array(ZId).min(1, 'Give every rule').max(MAX_INTAKE_RULES) }),
    response: z.object({ items: z.array(ZIntakeRule) }),
    extension: true,
  }),
  dryRunIntakeRules: endpoint({
    method: 'GET',
    path: '/api/intake/dry-run',
    guard: fcRead,
    summary: `What the rules would do to the last ${DRY_RUN_ARRIVALS} arrivals (nothing is changed)`,
    query: z.object({ rule_id: ZId.optional() }),
    response: z.object({ items: z.array(ZDryRunRow) }),
    extension: true,
  }),
  listIntakeArrivals: endpoint({
    method: 'GET',
    path: '/api/intake/arrivals',
    guard: fcRead,
    summary: 'What arrived, last first, with the rule that filed each',
    query: ZPageQuery(20).extend({
      status: ZIntakeArrivalStatus.optional(),
      source_id: ZId.optional(),
    }),
    response: ZPage(ZIntakeArrival),
    extension: true,
  }),
  testIntakeInbox: endpoint({
    method: 'POST',
    path: '/api/intake/sources/test-inbox',
    guard: fcWrite,
    summary:
      'Test connection: sign in to an IMAP inbox with these settings and open its mailbox (nothing is saved)',
    body: ZImapTestBody,
    response: ZImapTestResult,
    upstream: true,
    extension: true,
  }),
  retryIntakeArrival: endpoint({
    method: 'POST',
    path: '/api/intake/arrivals/{id}/retry',
    guard: fcWrite,
    summary: 'Take a failed arrival again (a folder file goes back into the folder; a message is read again)',
    params: ZIdParams,
    response: z.object({ id: z.number().int() }),
    extension: true,
  }),
};
