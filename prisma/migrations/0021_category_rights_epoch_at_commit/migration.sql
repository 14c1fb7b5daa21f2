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
-- - quire_category_rights(user) is a gate in front of 0020's function (now
--   quire_category_rights_cached), which it calls unless the transaction changed rights.
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

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['category_permissions', 'category_group_permissions',
                           'category_group_members', 'group_members'] LOOP
    EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I
                      DEFERRABLE INITIALLY DEFERRED
                      FOR EACH ROW EXECUTE FUNCTION quire_category_rights_commit()',
                   t || '_rights_commit', t);
  END LOOP;
END
$$;
CREATE CONSTRAINT TRIGGER categories_rights_commit
  AFTER INSERT OR DELETE ON categories DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION quire_category_rights_commit();
CREATE CONSTRAINT TRIGGER categories_tree_rights_commit
  AFTER UPDATE OF parent_id, inherit_permissions, deleted_at ON categories DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION quire_category_rights_commit();

-- A transaction that changed rights sees its own change: 0020's cache is of before it.
ALTER FUNCTION quire_category_rights(integer) RENAME TO quire_category_rights_cached;

CREATE FUNCTION quire_category_rights(p_user integer)
RETURNS TABLE (
  category_id integer, can_view boolean, can_upload boolean, can_edit boolean,
  can_delete boolean, can_share boolean, can_manage boolean
)
LANGUAGE plpgsql VOLATILE ROWS 100 AS $$
BEGIN
  IF quire_category_rights_changed_here() THEN
    RETURN QUERY SELECT * FROM quire_category_rights_computed(p_user);
  ELSE
    RETURN QUERY SELECT * FROM quire_category_rights_cached(p_user);
  END IF;
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
