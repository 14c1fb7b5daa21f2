import { z } from 'zod';
import { ZCategoryRef, ZCategoryRight, ZGrantInputs, ZGrantView, ZRights } from './category-grants.js';
import { ZId, ZIdParams, ZNull, ZText, zLine, zMultiline } from './common.js';
import { endpoint } from './http.js';
import { ZMetadataField } from './metadata.js';

// The catalog (spec §7 "Category"): a tree of categories ("folders"), their metadata fields,
// related tags, category groups and rights. Reads are for every signed-in user and show
// only what the caller may view (File Control admins and the Auditor: everything; everyone
// else: what is granted to them, their groups or through a category group, inherited down
// the tree). A category the caller may not view answers 404. Writes are File Control writes.
// Rights and grants are in category-grants.ts, category groups in category-groups.ts.

/** A category as the tree shows it (GET /api/folders: a flat list in tree order). */
export const ZCategory = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  /** The parent as the caller sees it: null at the top, and where the parent is hidden from the caller. */
  parent_id: z.number().int().nullable(),
  /** Order among siblings (0 first). */
  position: z.number().int(),
  /** Depth in the caller's tree (0 at the top). */
  depth: z.number().int(),
  inherit_fields: z.boolean(),
  inherit_permissions: z.boolean(),
  /** Sub-categories the caller may view. */
  subcategory_count: z.number().int(),
  /** Indexed files here (not below) the caller may view. */
  file_count: z.number().int(),
  /** What the caller may do here. */
  rights: ZRights,
});
export type TCategory = z.infer<typeof ZCategory>;

/** A category in the File Control list: the tree row with its path and settings counted. */
export const ZAdminCategory = ZCategory.extend({
  /** Names from the top, " / " between them. */
  path: z.string(),
  field_count: z.number().int(),
  tag_count: z.number().int(),
  /** Grants set on the category itself (users and groups). */
  grant_count: z.number().int(),
  category_groups: z.array(ZCategoryRef),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TAdminCategory = z.infer<typeof ZAdminCategory>;

/** A category in a picker (GET /api/fileCategories). */
export const ZCategoryOption = z.object({
  id: z.number().int(),
  name: z.string(),
  /** Names of the categories the caller may view above it, then its own, " / " between them. */
  path: z.string(),
  parent_id: z.number().int().nullable(),
  rights: ZRights,
});
export type TCategoryOption = z.infer<typeof ZCategoryOption>;

export const ZFileCategoriesQuery = z.object({
  /** Only the categories where the caller holds this right (e.g. `upload` for an upload form). */
  right: ZCategoryRight.optional(),
  /** Part of the name, any letter case. */
  search: zLine().trim().max(100).optional(),
});

/** A metadata field of a category: its own settings there, or inherited from a category above. */
export const ZCategoryField = z.object({
  field: ZMetadataField,
  /** Order in the category's form (inherited fields first). */
  position: z.number().int(),
  /** Required here: the category's override, else the field's own flag. */
  required: z.boolean(),
  /** The category's override of `required` (null: the field's own). */
  required_override: z.boolean().nullable(),
  default_value: z.string().nullable(),
  show_in_list: z.boolean(),
  /** Whether it comes from a category above (the category's own settings win over it). */
  inherited: z.boolean(),
  /** The category above it comes from, when the caller may view that category. */
  inherited_from: ZCategoryRef.nullable(),
});
export type TCategoryField = z.infer<typeof ZCategoryField>;

export const ZCategoryMeta = z.object({
  folder_id: z.number().int(),
  inherit_fields: z.boolean(),
  fields: z.array(ZCategoryField),
});
export type TCategoryMeta = z.infer<typeof ZCategoryMeta>;

/** A field to attach, in order: the category's own fields replace the old set. */
export const ZCategoryFieldInput = z.object({
  field_id: ZId,
  required: z.boolean().nullish(),
  default_value: zLine().trim().max(1000).nullish(),
  show_in_list: z.boolean().optional(),
});
export type TCategoryFieldInput = z.output<typeof ZCategoryFieldInput>;
const ZCategoryFields = z
  .array(ZCategoryFieldInput)
  .max(200)
  .refine((fields) => new Set(fields.map((f) => f.field_id)).size === fields.length, {
    message: 'A field is listed twice',
  });

export const TAG_COLOR = /^#[0-9a-fA-F]{6}$/;
const ZColor = z.string().regex(TAG_COLOR, 'Use a colour as #rrggbb');

export const ZRelatedTag = z.object({
  id: z.number().int(),
  folder_id: z.number().int(),
  name: z.string(),
  color: z.string().nullable(),
  /** The category the tag links to, when it links one the caller may view. */
  linked_folder: ZCategoryRef.nullable(),
});
export type TRelatedTag = z.infer<typeof ZRelatedTag>;

/** A category with what its settings screen shows. */
export const ZCategoryInfo = ZCategory.extend({
  /** The categories above it that the caller may view, from the top. */
  ancestors: z.array(ZCategoryRef),
  /** Its sub-categories the caller may view, in order. */
  children: z.array(ZCategory),
  incremental_prefix: z.string(),
  fields: z.array(ZCategoryField),
  related_tags: z.array(ZRelatedTag),
  category_groups: z.array(ZCategoryRef),
  /** Every grant that holds here; null unless the caller reads File Control. */
  grants: z.array(ZGrantView).nullable(),
  /**
   * Live files here and in every sub-category (all of them, whoever may see them): the
   * number a delete moves to the trash, and must confirm. Null unless the caller reads File Control.
   */
  subtree_file_count: z.number().int().nullable(),
  /** Sub-categories at any depth (null unless the caller reads File Control). */
  subtree_category_count: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TCategoryInfo = z.infer<typeof ZCategoryInfo>;

const ZName = ZText(120);
export const ZCategoryDescription = zMultiline().trim().max(1000);
const ZPosition = z.number().int().min(0).max(100000);
const ZPrefix = zLine().trim().max(20);

/** A category's settings beside its name and place, as a create or an update gives them. */
const categorySettings = {
  inherit_fields: z.boolean().optional(),
  inherit_permissions: z.boolean().optional(),
  incremental_prefix: ZPrefix.optional(),
  /** Its own fields, in this order (an update given them replaces the old set). */
  fields: ZCategoryFields.optional(),
  /** The grants set on the category itself (an update given them replaces the old ones). */
  permissions: ZGrantInputs.optional(),
};

export const ZStoreCategoryBody = z.object({
  name: ZName,
  description: ZCategoryDescription.optional(),
  /** Where to create it; absent: at the top. */
  parent_id: ZId.optional(),
  /** Place among its siblings (0 first); absent: last. */
  position: ZPosition.optional(),
  ...categorySettings,
});
export type TStoreCategoryBody = z.output<typeof ZStoreCategoryBody>;

export const ZUpdateCategoryBody = z.object({
  folder_id: ZId,
  name: ZName.optional(),
  description: ZCategoryDescription.optional(),
  /** Move under another category (null: to the top); a move into itself or below itself is refused. */
  parent_id: ZId.nullable().optional(),
  /** Place among its (new) siblings, 0 first. */
  position: ZPosition.optional(),
  ...categorySettings,
});
export type TUpdateCategoryBody = z.output<typeof ZUpdateCategoryBody>;

export const ZDuplicateFolderBody = z.object({
  folder_id: ZId,
  /** The copy's name; absent: "<name> (copy)", numbered until free. */
  name: ZName.optional(),
  /** Where the copy goes; absent: beside the original (null: at the top). */
  parent_id: ZId.nullable().optional(),
});

/**
 * Deleting a category deletes its sub-categories and moves every live file in them to the
 * trash with it. When there are files, the call must say how many it expects:
 * `confirm_file_count` equal to the number of files (folder/info's `subtree_file_count`);
 * otherwise it answers 409 `category.delete_unconfirmed`, telling the number, and changes nothing.
 */
export const ZDeleteFolderBody = z.object({
  folder_id: ZId,
  confirm_file_count: z.number().int().min(0).max(2147483647).optional(),
});

export const ZDeleteFolderData = z.object({
  id: z.number().int(),
  deleted_categories: z.number().int(),
  trashed_files: z.number().int(),
});

const ZTagName = ZText(60);
export const ZAddRelatedTagsBody = z.object({
  folder_id: ZId,
  tags: z
    .array(z.object({ name: ZTagName, color: ZColor.nullish(), linked_folder_id: ZId.nullish() }))
    .min(1, 'Give at least one tag')
    .max(100),
});

export const ZEditRelatedTagBody = z.object({
  id: ZId,
  /** The tag's category (the tag must be one of its tags). */
  folder_id: ZId,
  name: ZTagName.optional(),
  color: ZColor.nullish(),
  linked_folder_id: ZId.nullish(),
});

const fileControlWrite = { area: 'fileControl', access: 'write' } as const;

export const categoryContract = {
  folders: endpoint({
    method: 'GET',
    path: '/api/folders',
    guard: 'signedIn',
    summary:
      'The category tree the caller may view, as a flat list in tree order (depth-first, siblings in order)',
    response: z.array(ZCategory),
  }),
  folderMeta: endpoint({
    method: 'GET',
    path: '/api/folderMeta/{id}',
    guard: 'signedIn',
    // No object guard: the service lets through, besides those who view the category, whoever
    // has an unindexed file waiting there (to index it); 404 for anyone else.
    summary:
      "A category's metadata fields in order: inherited ones first (when it inherits), then its own. To those who view the category, or have an unindexed file waiting in it",
    params: ZIdParams,
    response: ZCategoryMeta,
  }),
  adminFileCategories: endpoint({
    method: 'GET',
    path: '/api/admin/fileCategories',
    guard: { area: 'fileControl', access: 'read' },
    summary: 'Every category in tree order with its path, counts, groups and dates (File Control)',
    response: z.array(ZAdminCategory),
  }),
  fileCategories: endpoint({
    method: 'GET',
    path: '/api/fileCategories',
    guard: 'signedIn',
    summary: 'The categories the caller may view (or hold `right` in), with their path, for pickers',
    query: ZFileCategoriesQuery,
    response: z.array(ZCategoryOption),
  }),
  folderInfo: endpoint({
    method: 'GET',
    path: '/api/folder/info/{id}',
    guard: 'signedIn',
    object: { category: 'view' },
    summary:
      'A category with its visible ancestors and sub-categories, fields, tags, groups and (File Control) every grant that holds there',
    params: ZIdParams,
    response: ZCategoryInfo,
  }),
  storeFolder: endpoint({
    method: 'POST',
    path: '/api/storeFolder',
    guard: fileControlWrite,
    object: { category: 'manage', from: 'body.parent_id' },
    summary:
      'Create a category (under `parent_id`, or at the top), its name unique among its siblings in any letter case',
    body: ZStoreCategoryBody,
    response: ZCategoryInfo,
  }),
  updateFolder: endpoint({
    method: 'POST',
    path: '/api/update/folder',
    guard: fileControlWrite,
    object: { category: 'manage', from: 'body.folder_id' },
    summary:
      'Rename, describe, move (`parent_id`, no cycles), reorder (`position`) a category, or replace its fields or grants',
    body: ZUpdateCategoryBody,
    response: ZCategoryInfo,
  }),
  duplicateFolder: endpoint({
    method: 'POST',
    path: '/api/duplicate/folder',
    guard: fileControlWrite,
    object: { category: 'manage', from: 'body.folder_id' },
    summary:
      'Copy a category and its sub-categories with their fields, tags, grants and category groups, without files',
    body: ZDuplicateFolderBody,
    response: ZCategoryInfo,
  }),
  deleteFolder: endpoint({
    method: 'POST',
    path: '/api/deleteFolder',
    guard: fileControlWrite,
    object: { category: 'manage', from: 'body.folder_id' },
    summary:
      'Delete a category and its sub-categories; their files go to the trash with them. With files, `confirm_file_count` must equal their number (else 409 with the number)',
    body: ZDeleteFolderBody,
    response: ZDeleteFolderData,
  }),
  relatedTags: endpoint({
    method: 'GET',
    path: '/api/related-tags/{id}',
    guard: 'signedIn',
    object: { category: 'view' },
    summary: "A category's related tags by name (id = the category)",
    params: ZIdParams,
    response: z.array(ZRelatedTag),
  }),
  addRelatedTags: endpoint({
    method: 'POST',
    path: '/api/add-related-tags',
    guard: fileControlWrite,
    object: { category: 'manage', from: 'body.folder_id' },
    summary: 'Add related tags to a category (names unique in the category, any letter case)',
    body: ZAddRelatedTagsBody,
    response: z.array(ZRelatedTag),
  }),
  editRelatedTag: endpoint({
    method: 'POST',
    path: '/api/edit-related-tag',
    guard: fileControlWrite,
    object: { category: 'manage', from: 'body.folder_id' },
    summary: 'Rename, recolour or relink a related tag of the category `folder_id`',
    body: ZEditRelatedTagBody,
    response: ZRelatedTag,
  }),
  deleteRelatedTag: endpoint({
    method: 'POST',
    path: '/api/delete-related-tag/{id}',
    guard: fileControlWrite,
    summary: 'Delete a related tag (files lose it)',
    params: ZIdParams,
    response: ZNull,
  }),
};
