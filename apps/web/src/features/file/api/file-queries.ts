import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

// The files area's reads: the category list, one file, the personal lists.

export type CategoryFilesQuery = {
  page?: number;
  quantity?: number;
  search?: string;
  startDate?: string;
  endDate?: string;
  fieldId?: number;
  fieldName?: string;
  /** The next_cursor of the page before (keyset paging, an extension). */
  cursor?: string;
};

/**
 * GET /api/fileIncategory/{id}: a new search replaces the query key, and TanStack Query
 * aborts the previous request (its signal reaches fetch), so a slow old answer never wins.
 */
export function useCategoryFiles(id: number, query: CategoryFilesQuery) {
  return useQuery({
    ...apiQueryOptions(calls.category.fileIncategory, { params: { id }, query }),
    placeholderData: (previous) => previous,
  });
}

/** A file id from an address: a positive whole number, else null (`/files/abc` asks nothing). */
export function fileIdFrom(text: string | undefined): number | null {
  return text && /^[1-9]\d{0,9}$/.test(text) && Number(text) <= 2_147_483_647 ? Number(text) : null;
}

export function useFileView(id: number | null) {
  return useQuery({
    ...apiQueryOptions(calls.file.fileView, { params: { id: id ?? 0 } }),
    enabled: id !== null,
  });
}

/** GET /api/file-activity/{id}: one page of the file's history, newest first. */
export function useFileActivity(id: number, page: number) {
  return useQuery({
    ...apiQueryOptions(calls.fileActions.fileActivity, { params: { id }, query: { page, quantity: 10 } }),
    placeholderData: (previous) => previous,
  });
}

/** GET /api/file-permissions/{id}: the file's own grants, for its permissions dialog. */
export function useFilePermissions(id: number) {
  return useQuery(apiQueryOptions(calls.file.filePermissions, { params: { id } }));
}

/** The categories a file can move to: those the caller may upload into. */
export function useMoveTargets() {
  return useQuery(apiQueryOptions(calls.category.fileCategories, { query: { right: 'upload' } }));
}

/** The groups rights can be given to: File Control readers only; others keep the groups granted. */
export function useGrantableGroups(enabled: boolean) {
  return useQuery({
    ...apiQueryOptions(calls.category.grantees),
    enabled,
    retry: false,
    staleTime: 60_000,
  });
}

export function useUnindexedFiles(query: { page?: number; folder_id?: number }) {
  return useQuery(apiQueryOptions(calls.file.unindexFile, { query }));
}

export function useCheckedOutFiles(page: number) {
  return useQuery(apiQueryOptions(calls.file.checkedOutFiles, { query: { page } }));
}

export function useFavouriteFiles(page: number) {
  return useQuery(apiQueryOptions(calls.file.favoriteFiles, { query: { page } }));
}
