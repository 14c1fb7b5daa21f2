import { z } from 'zod';
import { ZId } from './common.js';
import { endpoint } from './http.js';

// Rights in a category (spec §7 "Category"): the six rights, a grant of them to a user or a
// group, and where a grant holds from (set here, inherited, or through a category group).
// Registered under the `category` area (index.ts).

export const CATEGORY_RIGHTS = ['view', 'upload', 'edit', 'delete', 'share', 'manage'] as const;
export type CategoryRightName = (typeof CATEGORY_RIGHTS)[number];
export const ZCategoryRight = z.enum(CATEGORY_RIGHTS);

/** What a caller (or a grant) may do in a category. Any right implies view. */
export const ZRights = z.object({
  view: z.boolean(),
  upload: z.boolean(),
  edit: z.boolean(),
  delete: z.boolean(),
  share: z.boolean(),
  manage: z.boolean(),
});
export type TRights = z.infer<typeof ZRights>;

/** A category (or category group) named by id and name. */
export const ZCategoryRef = z.object({ id: z.number().int(), name: z.string() });

/** Who a grant is for. */
export const ZGrantee = z.object({
  kind: z.enum(['user', 'group']),
  id: z.number().int(),
  name: z.string(),
});

/**
 * A grant as the rights screen shows it: set on this category (`own`), inherited from a
 * category above (`inherited`, with `from`), or through a category group this category or one
 * above belongs to (`category_group`, with the group and `from`).
 */
export const ZGrantView = z.object({
  id: z.number().int(),
  grantee: ZGrantee,
  rights: ZRights,
  source: z.enum(['own', 'inherited', 'category_group']),
  /** The category the grant is set on (this one for `own`). */
  from: ZCategoryRef,
  category_group: ZCategoryRef.nullable(),
});
export type TGrantView = z.infer<typeof ZGrantView>;

/** A grant to set: a user or a group (exactly one) and its rights (any right implies view). */
export const ZGrantInput = z
  .object({
    user_id: ZId.optional(),
    group_id: ZId.optional(),
    rights: z.array(ZCategoryRight).min(1, 'Choose at least one right').max(6),
  })
  .refine((g) => (g.user_id === undefined) !== (g.group_id === undefined), {
    message: 'Give either user_id or group_id',
    path: ['user_id'],
  });
export type TGrantInput = z.output<typeof ZGrantInput>;
/** The grants a write replaces: at most 500. */
export const ZGrantInputs = z.array(ZGrantInput).max(500);

/** Who rights can be granted to (the rights screens' pickers). */
export const ZGrantees = z.object({
  users: z.array(z.object({ id: z.number().int(), name: z.string(), username: z.string() })),
  groups: z.array(ZCategoryRef),
});
export type TGrantees = z.infer<typeof ZGrantees>;

export const categoryGrantsContract = {
  grantees: endpoint({
    method: 'GET',
    path: '/api/category-grantees',
    guard: { area: 'fileControl', access: 'read' },
    extension: true,
    summary: 'The people (active) and groups rights can be granted to, by name',
    response: ZGrantees,
  }),
};
