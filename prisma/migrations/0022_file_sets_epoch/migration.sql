-- The file sets epoch (decision 022): raised at commit by every change to what a person's
-- granted and waiting files derive from, so a list server may keep a person's sets between
-- calls and check, inside each list statement, that they still hold.
--
-- A list reads the caller's sets (apps/api/src/lib/visible-sets.ts): the categories they view
-- (quire_viewed_category_ids, kept current by category_rights_epoch, 0020-0021) and the files
-- granted to them or waiting on their workflow step. The second derives from file_permissions,
-- group_members, workflow_tasks and workflow_instances: a change to any of them raises this
-- epoch once per transaction, at commit, after the audit chain's lock (the order 0021 gives
-- every raise). TRUNCATE (a restore) raises at once, in the same order.
--
-- quire_seen_sets_epoch() answers both epochs as one text, read in the calling statement's
-- snapshot: a statement that reads the sets and this epoch together never carries an epoch
-- newer than its sets, and a list statement that reads it sees whether the sets it was given
-- are still those of its own snapshot.

CREATE TABLE file_sets_epoch (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  epoch bigint NOT NULL
);
INSERT INTO file_sets_epoch (id, epoch) VALUES (true, 1);

-- One raise for both epochs: the audit chain's lock first, then the epoch's row, once per
-- transaction (again only after a later change marks the setting otherwise), the order
-- decision 020 gives every raise. The category rights epoch's raise (0021) now calls it.
-- Raised once, an epoch's new value is committed with every change of the transaction, the
-- ones after the raise too.
CREATE FUNCTION quire_epoch_raise(epoch_table regclass, setting text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting(setting, true) IS DISTINCT FROM 'raised' THEN
    PERFORM pg_advisory_xact_lock(727362);
    EXECUTE format('UPDATE %s SET epoch = epoch + 1', epoch_table);
    PERFORM set_config(setting, 'raised', true);
  END IF;
END
$$;

CREATE OR REPLACE FUNCTION quire_category_rights_raise() RETURNS void
LANGUAGE sql AS $$
  SELECT quire_epoch_raise('category_rights_epoch', 'quire.rights_changed')
$$;

CREATE FUNCTION quire_file_sets_raise() RETURNS void
LANGUAGE sql AS $$
  SELECT quire_epoch_raise('file_sets_epoch', 'quire.file_sets_changed')
$$;

CREATE FUNCTION quire_file_sets_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM quire_file_sets_raise();
  RETURN NULL;
END
$$;

DO $$
DECLARE
  t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['file_permissions', 'group_members', 'workflow_tasks'] LOOP
    EXECUTE format('CREATE CONSTRAINT TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I
                      DEFERRABLE INITIALLY DEFERRED
                      FOR EACH ROW EXECUTE FUNCTION quire_file_sets_changed()',
                   t || '_file_sets_commit', t);
    EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I
                      FOR EACH STATEMENT EXECUTE FUNCTION quire_file_sets_changed()',
                   t || '_file_sets_truncate', t);
  END LOOP;
END
$$;
-- An instance's file, state and current step decide whose step a file waits on.
CREATE CONSTRAINT TRIGGER workflow_instances_file_sets_commit
  AFTER INSERT OR DELETE ON workflow_instances DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION quire_file_sets_changed();
CREATE CONSTRAINT TRIGGER workflow_instances_step_file_sets_commit
  AFTER UPDATE OF file_id, status, current_step_id, step_entered_at ON workflow_instances
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW EXECUTE FUNCTION quire_file_sets_changed();
CREATE TRIGGER workflow_instances_file_sets_truncate AFTER TRUNCATE ON workflow_instances
  FOR EACH STATEMENT EXECUTE FUNCTION quire_file_sets_changed();

-- Both epochs, `category.file`, in the caller's snapshot (STABLE: no snapshot of its own).
CREATE FUNCTION quire_seen_sets_epoch() RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT (SELECT c.epoch FROM category_rights_epoch c)::text || '.' || (SELECT f.epoch FROM file_sets_epoch f)::text
$$;
