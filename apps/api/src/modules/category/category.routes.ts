import { categoryContract, categoryGrantsContract, categoryGroupsContract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import { scopeOf } from '../../lib/visibility.js';
import * as catalog from './category.service.js';
import * as groups from './category-groups.service.js';
import * as changes from './category-writes.service.js';
import * as tags from './related-tags.service.js';

// The calls of category.ts, category-grants.ts and category-groups.ts in the contract.
const calls = { ...categoryContract, ...categoryGrantsContract, ...categoryGroupsContract };

export const categoryModule = (deps: Deps) =>
  defineRoutes('category', calls, {
    folders: async ({ auth }) => ({ data: await catalog.listCategories(deps, scopeOf(auth)) }),
    folderMeta: async ({ auth, params }) => ({
      data: await catalog.categoryMeta(deps, scopeOf(auth), params.id),
    }),
    adminFileCategories: async ({ auth }) => ({ data: await catalog.adminCategories(deps, scopeOf(auth)) }),
    fileCategories: async ({ auth, query }) => ({
      data: await catalog.fileCategories(deps, scopeOf(auth), query),
    }),
    categoryGroups: async ({ auth }) => ({ data: await groups.listCategoryGroups(deps, scopeOf(auth)) }),
    categoryGroup: async ({ auth, params }) => ({
      data: await groups.getCategoryGroup(deps.db, scopeOf(auth), params.id),
    }),
    createCategoryGroup: async ({ auth, actor, body }) => ({
      message: 'Category group created',
      data: await groups.createCategoryGroup(deps, scopeOf(auth), actor, body),
    }),
    updateCategoryGroup: async ({ auth, actor, body }) => ({
      message: 'Category group updated',
      data: await groups.updateCategoryGroup(deps, scopeOf(auth), actor, body),
    }),
    deleteCategoryGroup: async ({ actor, params }) => {
      await groups.deleteCategoryGroup(deps, actor, params.id);
      return { message: 'Category group deleted', data: null };
    },
    folderInfo: async ({ auth, params }) => ({
      data: await catalog.categoryInfo(deps.db, scopeOf(auth), params.id),
    }),
    storeFolder: async ({ auth, actor, body }) => ({
      message: 'Category created',
      data: await changes.createCategory(deps, scopeOf(auth), actor, body),
    }),
    updateFolder: async ({ auth, actor, body }) => ({
      message: 'Category updated',
      data: await changes.updateCategory(deps, scopeOf(auth), actor, body),
    }),
    duplicateFolder: async ({ auth, actor, body }) => ({
      message: 'Category copied',
      data: await changes.duplicateCategory(deps, scopeOf(auth), actor, body),
    }),
    deleteFolder: async ({ auth, actor, body }) => {
      const data = await changes.deleteCategory(deps, auth, actor, body);
      return {
        message:
          data.trashed_files > 0
            ? `Category deleted; ${data.trashed_files} file${data.trashed_files === 1 ? '' : 's'} moved to the trash`
            : 'Category deleted',
        data,
      };
    },
    relatedTags: async ({ auth, params }) => ({
      data: await tags.listTags(deps, scopeOf(auth), params.id),
    }),
    addRelatedTags: async ({ auth, actor, body }) => ({
      message: 'Related tags added',
      data: await tags.addTags(deps, scopeOf(auth), actor, body),
    }),
    editRelatedTag: async ({ auth, actor, body }) => ({
      message: 'Related tag updated',
      data: await tags.editTag(deps, scopeOf(auth), actor, body),
    }),
    grantees: async () => ({ data: await groups.grantees(deps) }),
    deleteRelatedTag: async ({ actor, params }) => {
      await tags.deleteTag(deps, actor, params.id);
      return { message: 'Related tag deleted', data: null };
    },
  });
