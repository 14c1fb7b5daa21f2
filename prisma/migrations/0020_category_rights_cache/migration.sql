-- Each person's category rights, kept per person and invalidated in the same transaction as
-- what they derive from (issue 29, decision 020).
--
-- quire_category_rights(user) walked the whole category tree for every call that asks what a
-- person may see or do (every list, search, object guard and upload): at 500 categories about
-- 1-2 ms of database CPU a call, most of a category list's cost over an administrator's. The
-- answer changes only when a grant, a membership or the shape of the tree changes, which is
-- rare next to reads. So:
--
-- - category_rights_epoch holds one number. A statement that changes what rights derive from
--   (category and category-group grants, category-group members, group members, a category's
--   creation, parent, inheritance or deletion) raises it, in its own transaction, by the
--   statement triggers below. Until that transaction commits, others read the old number and
--   the old rights, as their snapshot says; the transaction itself reads the new ones.
-- - category_rights_cache holds, per person, the rights computed at an epoch.
--   quire_category_rights(user) answers from it when its epoch is the current one, else
--   computes them (quire_category_rights_computed, the tree walk of 0006) and stores them.
--   The epoch is read before the rights are computed, so a stored row is never older than the
--   epoch it carries (a change committed in between only makes it miss once more).
-- - The cache is UNLOGGED: it is derived data, emptied after a crash and refilled on the next
--   read, and a read that stores a row does not wait for a WAL flush at commit.
-- - Storing is best effort, so that a read never waits or fails for it: only in a read-write
--   READ COMMITTED transaction (a REPEATABLE READ one could fail to serialize on the row), and
--   only when no other transaction is storing the same person's row (a per-person advisory
--   lock, tried, never waited for: key 727366 of apps/api/src/lib/locks.ts).

ALTER FUNCTION quire_category_rights(integer) RENAME TO quire_category_rights_computed;

CREATE TABLE category_rights_epoch (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  epoch bigint NOT NULL
);
INSERT INTO category_rights_epoch (id, epoch) VALUES (true, 1);

-- One row per person: the categories they view (ascending) and, in parallel arrays, the
-- rights that hold there (view holds in each).
CREATE UNLOGGED TABLE category_rights_cache (
  user_id integer PRIMARY KEY,
  epoch bigint NOT NULL,
  category_ids integer[] NOT NULL,
  uploads boolean[] NOT NULL,
  edits boolean[] NOT NULL,
  deletes boolean[] NOT NULL,
  shares boolean[] NOT NULL,
  manages boolean[] NOT NULL
);

CREATE FUNCTION quire_category_rights(p_user integer)
RETURNS TABLE (
  category_id integer, can_view boolean, can_upload boolean, can_edit boolean,
  can_delete boolean, can_share boolean, can_manage boolean
)
LANGUAGE plpgsql VOLATILE ROWS 100 AS $$
#variable_conflict use_column
DECLARE
  current_epoch bigint;
  hit category_rights_cache%ROWTYPE;
BEGIN
  SELECT e.epoch INTO current_epoch FROM category_rights_epoch e;
  SELECT k.* INTO hit FROM category_rights_cache k WHERE k.user_id = p_user AND k.epoch = current_epoch;
  IF NOT FOUND THEN
    SELECT p_user, current_epoch,
           coalesce(array_agg(r.category_id ORDER BY r.category_id), '{}'),
           coalesce(array_agg(r.can_upload ORDER BY r.category_id), '{}'),
           coalesce(array_agg(r.can_edit ORDER BY r.category_id), '{}'),
           coalesce(array_agg(r.can_delete ORDER BY r.category_id), '{}'),
           coalesce(array_agg(r.can_share ORDER BY r.category_id), '{}'),
           coalesce(array_agg(r.can_manage ORDER BY r.category_id), '{}')
      INTO hit
      FROM quire_category_rights_computed(p_user) r;
    IF current_setting('transaction_read_only') = 'off'
       AND current_setting('transaction_isolation') = 'read committed'
       AND pg_try_advisory_xact_lock(727366, p_user) THEN
      INSERT INTO category_rights_cache AS k
             (user_id, epoch, category_ids, uploads, edits, deletes, shares, manages)
      VALUES (hit.user_id, hit.epoch, hit.category_ids, hit.uploads, hit.edits, hit.deletes,
              hit.shares, hit.manages)
      ON CONFLICT (user_id) DO UPDATE
         SET epoch = excluded.epoch, category_ids = excluded.category_ids,
             uploads = excluded.uploads, edits = excluded.edits, deletes = excluded.deletes,
             shares = excluded.shares, manages = excluded.manages
       WHERE k.epoch < excluded.epoch;
    END IF;
  END IF;
  RETURN QUERY
    SELECT c.id, true, c.upload, c.edit, c.del, c.share, c.manage
      FROM unnest(hit.category_ids, hit.uploads, hit.edits, hit.deletes, hit.shares, hit.manages)
           AS c(id, upload, edit, del, share, manage);
END
$$;

CREATE FUNCTION quire_category_rights_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE category_rights_epoch SET epoch = epoch + 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER category_permissions_rights_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON category_permissions
  FOR EACH STATEMENT EXECUTE FUNCTION quire_category_rights_changed();
CREATE TRIGGER category_group_permissions_rights_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON category_group_permissions
  FOR EACH STATEMENT EXECUTE FUNCTION quire_category_rights_changed();
CREATE TRIGGER category_group_members_rights_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON category_group_members
  FOR EACH STATEMENT EXECUTE FUNCTION quire_category_rights_changed();
CREATE TRIGGER group_members_rights_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON group_members
  FOR EACH STATEMENT EXECUTE FUNCTION quire_category_rights_changed();
-- A category's name, position, workflow or running number does not change who sees it.
CREATE TRIGGER categories_rights_changed
  AFTER INSERT OR DELETE OR TRUNCATE ON categories
  FOR EACH STATEMENT EXECUTE FUNCTION quire_category_rights_changed();
CREATE TRIGGER categories_tree_rights_changed
  AFTER UPDATE OF parent_id, inherit_permissions, deleted_at ON categories
  FOR EACH STATEMENT EXECUTE FUNCTION quire_category_rights_changed();
