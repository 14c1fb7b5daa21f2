-- The files that take their category's grants (not restricted: has_own_permissions), live and
-- indexed, by category and newest first (issue 29). A list's category route
-- (lib/visible-sets.ts: `NOT has_own_permissions AND category_id = ANY($ids)`) is read from this
-- index alone, as an administrator's list is from files_category_live_idx; with that one it
-- read each file's row to check has_own_permissions.
CREATE INDEX "files_category_shared_idx" ON "files"("category_id", "created_at" DESC, "id" DESC) WHERE ((deleted_at IS NULL) AND (index_status = 'indexed'::"FileIndexStatus") AND (NOT has_own_permissions));
