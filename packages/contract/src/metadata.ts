import { z } from 'zod';
import { ZId, ZIdParams, ZNull, ZText, zLine, zMultiline } from './common.js';
import { endpoint } from './http.js';

// Metadata fields (spec §7 "Metadata", the spec's "user fields"): typed fields that index
// files, attached to categories (folderMeta) and used by workflows. File Control admins
// write them; every signed-in user reads them (indexing and filters need them).

export const FIELD_TYPES = ['text', 'number', 'date', 'boolean', 'select', 'user'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];
export const ZFieldType = z.enum(FIELD_TYPES);

/** How the metadata screens name each type. */
export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  text: 'Text',
  number: 'Number',
  date: 'Date',
  boolean: 'Yes/no',
  select: 'Value list',
  user: 'User',
};

/** A calendar date as the wire carries it. */
export const ZDate = z.iso.date('Use a date as YYYY-MM-DD');

/** A pattern (text fields): a JavaScript regular expression without delimiters, at most 200 characters. */
export const FIELD_PATTERN_MAX = 200;
/** The longest text a text field's max_length may allow. */
export const FIELD_TEXT_MAX = 10000;

/** Where a field is in use, counted: it cannot be deleted while any is above zero. */
export const ZFieldUsage = z.object({
  /** Categories (that the caller may view) asking for the field at indexing. */
  categories: z.number().int(),
  /** Files holding a value of the field. */
  files: z.number().int(),
  /** Workflows collecting it, their steps, conditions, triggers and runs. */
  workflows: z.number().int(),
});

export const ZMetadataField = z.object({
  id: z.number().int(),
  name: z.string(),
  type: ZFieldType,
  /** The value list of a `select` field; null for the other types. */
  value_list: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  required: z.boolean(),
  help_text: z.string(),
  min_number: z.number().nullable(),
  max_number: z.number().nullable(),
  min_date: z.string().nullable(),
  max_date: z.string().nullable(),
  max_length: z.number().int().nullable(),
  pattern: z.string().nullable(),
  position: z.number().int(),
  usage: ZFieldUsage,
  created_at: z.string(),
  updated_at: z.string(),
});
export type TMetadataField = z.infer<typeof ZMetadataField>;

/** A person a `user` field can name. */
export const ZFieldUser = z.object({ id: z.number().int(), name: z.string(), username: z.string() });

const ZBound = z.number().finite().min(-1e18).max(1e18);

/**
 * Create (no `id`) or update (`id`) a field. Validation options belong to one type each:
 * min/max number to `number`, min/max date to `date`, max length and pattern to `text`,
 * a value list to `select` (required there). Options of another type are refused.
 */
export const ZStoreUserFieldBody = z
  .object({
    id: ZId.optional(),
    name: ZText(100),
    type: ZFieldType,
    value_list_id: ZId.nullish(),
    required: z.boolean().optional(),
    help_text: zMultiline().trim().max(500).optional(),
    min_number: ZBound.nullish(),
    max_number: ZBound.nullish(),
    min_date: ZDate.nullish(),
    max_date: ZDate.nullish(),
    max_length: z.number().int().min(1).max(FIELD_TEXT_MAX).nullish(),
    pattern: zLine().trim().max(FIELD_PATTERN_MAX).nullish(),
    position: z.number().int().min(0).max(100000).optional(),
  })
  .superRefine((b, ctx) => {
    const only = (key: keyof typeof b, type: FieldType) => {
      if (b[key] !== undefined && b[key] !== null && b.type !== type)
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: `Only a ${FIELD_TYPE_LABELS[type].toLowerCase()} field takes this`,
        });
    };
    only('min_number', 'number');
    only('max_number', 'number');
    only('min_date', 'date');
    only('max_date', 'date');
    only('max_length', 'text');
    only('pattern', 'text');
    only('value_list_id', 'select');
    if (b.type === 'select' && !b.value_list_id)
      ctx.addIssue({ code: 'custom', path: ['value_list_id'], message: 'Choose the value list' });
    if (b.min_number != null && b.max_number != null && b.min_number > b.max_number)
      ctx.addIssue({ code: 'custom', path: ['max_number'], message: 'The maximum is below the minimum' });
    if (b.min_date && b.max_date && b.min_date > b.max_date)
      ctx.addIssue({ code: 'custom', path: ['max_date'], message: 'The latest date is before the earliest' });
    if (b.pattern) {
      try {
        new RegExp(b.pattern, 'u');
      } catch {
        ctx.addIssue({ code: 'custom', path: ['pattern'], message: 'Not a valid pattern' });
      }
    }
  });
export type TStoreUserFieldBody = z.output<typeof ZStoreUserFieldBody>;

export const metadataContract = {
  userFields: endpoint({
    method: 'GET',
    path: '/api/user_fields',
    guard: 'signedIn',
    summary:
      'Every metadata field, in order, with where it is used (categories counted among those you may view)',
    response: z.array(ZMetadataField),
  }),
  fieldUsers: endpoint({
    method: 'GET',
    path: '/api/user_fields/users',
    guard: 'signedIn',
    summary: 'The active people a `user` field can name, by name',
    response: z.array(ZFieldUser),
  }),
  storeUserField: endpoint({
    method: 'POST',
    path: '/api/store_user_field',
    guard: { area: 'fileControl', access: 'write' },
    summary:
      'Create a metadata field, or update one (`id`); a field holding values keeps its type and value list (409)',
    body: ZStoreUserFieldBody,
    response: ZMetadataField,
  }),
  deleteUserField: endpoint({
    method: 'DELETE',
    path: '/api/deleteUserField/{id}',
    guard: { area: 'fileControl', access: 'write' },
    summary: 'Delete a metadata field no category, file or workflow uses (409 says where it is used)',
    params: ZIdParams,
    response: ZNull,
  }),
};
