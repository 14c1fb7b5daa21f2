-- The category rights epoch raised at commit, after the audit chain's lock (decision 020).
--
-- 0020 raised the epoch (an UPDATE of its one row) in a statement trigger, so a transaction
-- held the row's lock from its first grant, membership or tree change until it ended. Two such
-- transactions deadlocked when the second had taken a row lock the first then waited for: the
-- second's change waited for the epoch row, the first for the second's row.
--
-- Now:
-- - The statement triggers only note, for the rest of the transaction, that it changed what
--   rights derive from (the setting quire.rights_changed, local to the transaction and undone
--   with it or with a rolled-back savepoint). While noted, quire_category_rights(user) and
--   quire_viewed_category_ids(user) compute the rights (the transaction's own view) instead of
--   answering from the cache, whose epoch has not moved yet.
-- - Deferred constraint triggers raise the epoch at commit, once per transaction, after taking
--   the audit chain's lock (727362): the last lock a transaction takes, which the audit seal
--   (0011) takes at commit too. Every raise takes the two in that order, so the epoch row is
--   never waited for by a holder of another lock; commits that raise it already came one after
--   the other through the seal (each such change writes its audit event).
-- - TRUNCATE has no constraint trigger: its statement trigger raises at once, in the same
--   order (a restore truncates every table in one statement and holds them until commit).
-- - The person's cached category ids, which the sets of a list read directly (0020), are
--   read through quire_viewed_category_ids(user): the layout of the cache stays in SQL.

CREATE FUNCTION quire_category_rights_changed_here() RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('quire.rights_changed', true), '') <> ''
$$;

-- Raises the epoch once per transaction (again only after a later change).
CREATE FUNCTION quire_category_rights_raise() RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('quire.rights_changed', true) IS DISTINCT FROM 'raised' THEN
    PERFORM pg_advisory_xact_lock(727362);
    UPDATE category_rights_epoch SET epoch = epoch + 1;
    PERFORM set_config('quire.rights_changed', 'raised', true);
  END IF;
END
$$;

CREATE OR REPLACE FUNCTION quire_category_rights_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('quire.rights_changed', 'on', true);
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM quire_category_rights_raise();
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION quire_category_rights_commit() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM quire_category_rights_raise();
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER category_permissions_rights_commit
  AFTER INSERT OR UPDATE OR DELETE ON category_permissions DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION quire_category_rights_commit();
CREATE CONSTRAINT TRIGGER category_group_permissions_rights_commit
  AFTER INSERT OR UPDATE OR DELETE ON category_group_permissions DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION quire_category_rights_commit();
CREATE CONSTRAINT TRIGGER category_group_members_rights_commit
  AFTER INSERT OR UPDATE OR DELETE ON category_group_members DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION quire_category_rights_commit();
CREATE CONSTRAINT TRIGGER group_members_rights_commit
  AFTER INSERT OR UPDATE OR DELETE ON group_members DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION quire_category_rights_commit();
CREATE CONSTRAINT TRIGGER categories_rights_commit
  AFTER INSERT OR DELETE ON categories DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION quire_category_rights_commit();
CREATE CONSTRAINT TRIGGER categories_tree_rights_commit
  AFTER UPDATE OF parent_id, inherit_permissions, deleted_at ON categories DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION quire_category_rights_commit();

CREATE OR REPLACE FUNCTION quire_category_rights(p_user integer)
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
  -- A transaction that changed rights sees its own change: the cache is of before it.
  IF quire_category_rights_changed_here() THEN
    RETURN QUERY SELECT * FROM quire_category_rights_computed(p_user);
    RETURN;
  END IF;
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

-- The ids of the categories a person views, ascending: the cache row's own array while it is
-- current (no rows to unnest, sort and gather again), else the function's answer.
CREATE FUNCTION quire_viewed_category_ids(p_user integer) RETURNS integer[]
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  ids integer[];
BEGIN
  IF NOT quire_category_rights_changed_here() THEN
    SELECT k.category_ids INTO ids
      FROM category_rights_cache k JOIN category_rights_epoch e ON e.epoch = k.epoch
     WHERE k.user_id = p_user;
    IF FOUND THEN
      RETURN ids;
    END IF;
  END IF;
  RETURN ARRAY(SELECT r.category_id FROM quire_category_rights(p_user) r ORDER BY 1);
END
$$;
