import { z } from 'zod';
import { ZCategoryDescription } from './category.js';
import { ZCategoryRef, ZGrantee, ZGrantInputs, ZRights } from './category-grants.js';
import { ZId, ZIdParams, ZNull, ZText } from './common.js';
import { endpoint } from './http.js';

// Category groups (spec §7 "Category"): named sets of categories whose grants apply to every
// member. Reads are for every signed-in user and show only the members the caller may view;
// writes are File Control writes. Registered under the `category` area (index.ts).

export const ZCategoryGroup = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  /** Member categories the caller may view, in the group's order. */
  categories: z.array(ZCategoryRef.extend({ path: z.string() })),
  /** The group's grants (apply to every member); null unless the caller reads File Control. */
  grants: z.array(z.object({ id: z.number().int(), grantee: ZGrantee, rights: ZRights })).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TCategoryGroup = z.infer<typeof ZCategoryGroup>;

const ZCategoryIds = z
  .array(ZId)
  .max(5000)
  .refine((ids) => new Set(ids).size === ids.length, { message: 'A category is listed twice' });

export const ZCreateCategoryGroupBody = z.object({
  name: ZText(100),
  description: ZCategoryDescription.optional(),
  category_ids: ZCategoryIds.optional(),
  permissions: ZGrantInputs.optional(),
});

export const ZUpdateCategoryGroupBody = z.object({
  id: ZId,
  name: ZText(100).optional(),
  description: ZCategoryDescription.optional(),
  /** When given, replaces the members, in this order. */
  category_ids: ZCategoryIds.optional(),
  /** When given, replaces the group's grants. */
  permissions: ZGrantInputs.optional(),
});

const fileControlWrite = { area: 'fileControl', access: 'write' } as const;

export const categoryGroupsContract = {
  categoryGroups: endpoint({
    method: 'GET',
    path: '/api/category-groups',
    guard: 'signedIn',
    summary:
      'Category groups by name, with the member categories the caller may view (groups with none are left out)',
    response: z.array(ZCategoryGroup),
  }),
  categoryGroup: endpoint({
    method: 'GET',
    path: '/api/category-groups/{id}',
    guard: 'signedIn',
    summary: 'One category group (404 when the caller may view none of its categories)',
    params: ZIdParams,
    response: ZCategoryGroup,
  }),
  createCategoryGroup: endpoint({
    method: 'POST',
    path: '/api/create/category-group',
    guard: fileControlWrite,
    summary: 'Create a category group (unique name) with member categories and grants for all of them',
    body: ZCreateCategoryGroupBody,
    response: ZCategoryGroup,
  }),
  updateCategoryGroup: endpoint({
    method: 'POST',
    path: '/api/update/category-group',
    guard: fileControlWrite,
    summary:
      'Rename or describe a category group; `category_ids` and `permissions` replace its members and grants',
    body: ZUpdateCategoryGroupBody,
    response: ZCategoryGroup,
  }),
  deleteCategoryGroup: endpoint({
    method: 'POST',
    path: '/api/delete/category-group/{id}',
    guard: fileControlWrite,
    extension: true,
    summary: 'Delete a category group: its grants stop applying; the categories stay',
    params: ZIdParams,
    response: ZNull,
  }),
};
