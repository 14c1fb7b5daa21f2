import { z } from 'zod';
import { ZIdParams, ZText } from './common.js';
import { ZFilterFilesBody } from './dashboard-and-search.js';
import { endpoint } from './http.js';

// Saved views (our own, issue 22): a search or filter a person saves by name, to open again
// from the search page, or from the dashboard when pinned. Each person sees and changes only
// their own (another's view answers 404, as one that does not exist).

/** The most views one person may keep. */
export const SAVED_VIEWS_MAX = 100;

/**
 * What a view replays: the search page's call as it sends it (POST /api/filter-files's body,
 * the search text included), with at least a search or one filter.
 */
export const ZSavedViewQuery = ZFilterFilesBody.refine(
  (q) =>
    q.search !== undefined ||
    q.category_id !== undefined ||
    q.startDate !== undefined ||
    q.endDate !== undefined ||
    q.owner_id !== undefined ||
    q.workflow_step_id !== undefined ||
    q.locked !== undefined ||
    q.checked_out !== undefined ||
    q.fields.length > 0,
  'Search for something or choose a filter before saving a view',
);
export type TSavedViewQuery = z.infer<typeof ZSavedViewQuery>;

export const ZSavedViewName = ZText(100);

export const ZSavedView = z.object({
  id: z.number().int(),
  name: z.string(),
  query: ZSavedViewQuery,
  /** Shown on the dashboard. */
  pinned: z.boolean(),
  /** Its place in the person's list, from 0. */
  position: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TSavedView = z.infer<typeof ZSavedView>;

export const ZCreateSavedViewBody = z.object({
  name: ZSavedViewName,
  query: ZSavedViewQuery,
  pinned: z.boolean().default(false),
});
export type TCreateSavedViewBody = z.input<typeof ZCreateSavedViewBody>;
export type TCreateSavedViewInput = z.infer<typeof ZCreateSavedViewBody>;

export const ZUpdateSavedViewBody = z
  .object({
    name: ZSavedViewName.optional(),
    pinned: z.boolean().optional(),
    /** Move it to this place in the list (from 0; past the end means last). */
    position: z.number().int().min(0).max(SAVED_VIEWS_MAX).optional(),
    query: ZSavedViewQuery.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Give a name, pinned, position or query');
export type TUpdateSavedViewBody = z.input<typeof ZUpdateSavedViewBody>;
export type TUpdateSavedViewInput = z.infer<typeof ZUpdateSavedViewBody>;

export const savedViewContract = {
  listSavedViews: endpoint({
    method: 'GET',
    path: '/api/saved-views',
    guard: 'signedIn',
    summary: 'Your saved views, in your order (the pinned ones are on your dashboard)',
    response: z.object({ items: z.array(ZSavedView) }),
    extension: true,
  }),
  createSavedView: endpoint({
    method: 'POST',
    path: '/api/saved-views',
    guard: 'signedIn',
    summary: `Save a search or filter by name (unique among yours; at most ${SAVED_VIEWS_MAX}), last in your list`,
    body: ZCreateSavedViewBody,
    response: ZSavedView,
    extension: true,
  }),
  updateSavedView: endpoint({
    method: 'PATCH',
    path: '/api/saved-views/{id}',
    guard: 'signedIn',
    summary: 'Rename, pin or unpin, move, or change the query of one of your saved views',
    params: ZIdParams,
    body: ZUpdateSavedViewBody,
    response: ZSavedView,
    extension: true,
  }),
  deleteSavedView: endpoint({
    method: 'DELETE',
    path: '/api/saved-views/{id}',
    guard: 'signedIn',
    summary: 'Delete one of your saved views',
    params: ZIdParams,
    response: z.object({ id: z.number().int() }),
    extension: true,
  }),
};
