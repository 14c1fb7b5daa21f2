-- DropForeignKey
ALTER TABLE "audit_events" DROP CONSTRAINT "audit_events_user_id_fkey";

-- AlterTable
ALTER TABLE "audit_events" ADD COLUMN     "hash" TEXT,
ADD COLUMN     "prev_hash" TEXT,
ADD COLUMN     "seq" BIGINT;

-- AlterTable
ALTER TABLE "version_texts" ADD COLUMN     "search_vector" tsvector,
ADD COLUMN     "truncated" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "audit_verifications" (
    "id" SERIAL NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    "finished_at" TIMESTAMP(3) NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "checked" BIGINT NOT NULL,
    "head_seq" BIGINT NOT NULL,
    "head_hash" TEXT NOT NULL,
    "problem" TEXT,
    "problem_seq" BIGINT,

    CONSTRAINT "audit_verifications_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_verifications_finished_at_idx" ON "audit_verifications"("finished_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_seq_key" ON "audit_events"("seq");

-- CreateIndex
CREATE INDEX "audit_events_user_id_seq_idx" ON "audit_events"("user_id", "seq" DESC);

-- CreateIndex
CREATE INDEX "audit_events_type_seq_idx" ON "audit_events"("type", "seq" DESC);

-- CreateIndex
CREATE INDEX "audit_events_target_type_target_id_seq_idx" ON "audit_events"("target_type", "target_id", "seq" DESC);

-- CreateIndex
CREATE INDEX "files_recent_idx" ON "files"("updated_at" DESC, "id" DESC) WHERE ((deleted_at IS NULL) AND (index_status = 'indexed'::"FileIndexStatus"));

-- CreateIndex
CREATE INDEX "files_created_idx" ON "files"("created_at" DESC, "id" DESC) WHERE ((deleted_at IS NULL) AND (index_status = 'indexed'::"FileIndexStatus"));

-- CreateIndex
CREATE INDEX "files_locked_idx" ON "files"("locked_by_id") WHERE (locked_by_id IS NOT NULL);

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;


-- ---------------------------------------------------------------------------------------------
-- The audit trail as a hash chain (docs/decisions/013-audit-hash-chain.md).
--
-- Every event is sealed when its transaction commits: a deferred constraint trigger takes
-- the chain lock (an advisory lock held to the end of the committing transaction), reads the
-- newest sealed event and gives the new one seq = head + 1, prev_hash = the head hash and
-- hash = quire_audit_hash(event). Sealing happens in commit order, so the chain is one total
-- order even with many writers, and a long transaction holds the lock only while it commits.
-- The table takes inserts only: UPDATE, DELETE and TRUNCATE are refused, except the seal
-- itself and a reload (backup restore, bulk seed) that sets quire.audit_reload = on for its
-- transaction and brings the chain values of every row with it.

-- The canonical content of an event: every field as its byte length, a colon and its
-- text (a dash for null), so no two different events read the same.
CREATE FUNCTION quire_audit_field(v text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(octet_length(v)::text || ':' || v, '-')
$$;

CREATE FUNCTION quire_audit_hash(e audit_events) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT encode(sha256(convert_to(
    quire_audit_field(e.prev_hash) || quire_audit_field(e.seq::text) || quire_audit_field(e.id::text)
    || quire_audit_field(e.user_id::text) || quire_audit_field(e.type) || quire_audit_field(e.action)
    || quire_audit_field(e.target_type) || quire_audit_field(e.target_id) || quire_audit_field(e.message)
    || quire_audit_field(e.details::text) || quire_audit_field(e.ip)
    || quire_audit_field(to_char(e.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS')),
    'UTF8')), 'hex')
$$;

CREATE FUNCTION quire_audit_reload() RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('quire.audit_reload', true), '') = 'on'
$$;

-- The events there before the chain: sealed in id order.
DO $$
DECLARE
  e audit_events;
  prev text := '';
  n bigint := 0;
BEGIN
  FOR e IN SELECT * FROM audit_events ORDER BY id LOOP
    n := n + 1;
    e.seq := n;
    e.prev_hash := prev;
    e.hash := quire_audit_hash(e);
    UPDATE audit_events SET seq = e.seq, prev_hash = e.prev_hash, hash = e.hash WHERE id = e.id;
    prev := e.hash;
  END LOOP;
END
$$;

CREATE FUNCTION quire_audit_before_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- Only a reload brings its own chain values: any other insert is sealed at commit.
  IF NOT quire_audit_reload() THEN
    NEW.seq := NULL;
    NEW.prev_hash := NULL;
    NEW.hash := NULL;
  END IF;
  RETURN NEW;
END
$$;

CREATE FUNCTION quire_audit_seal() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  head record;
  e audit_events;
BEGIN
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'audit events are written in READ COMMITTED transactions only (the chain head must be read fresh)';
  END IF;
  PERFORM pg_advisory_xact_lock(727362);
  SELECT a.seq, a.hash INTO head FROM audit_events a WHERE a.seq IS NOT NULL ORDER BY a.seq DESC LIMIT 1;
  SELECT * INTO e FROM audit_events WHERE id = NEW.id;
  e.seq := coalesce(head.seq, 0) + 1;
  e.prev_hash := coalesce(head.hash, '');
  e.hash := quire_audit_hash(e);
  UPDATE audit_events SET seq = e.seq, prev_hash = e.prev_hash, hash = e.hash WHERE id = NEW.id;
  RETURN NULL;
END
$$;

CREATE FUNCTION quire_audit_append_only() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF quire_audit_reload() THEN
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
  END IF;
  -- The seal: chain values set once, on an event not sealed yet, nothing else changed.
  IF TG_OP = 'UPDATE' AND OLD.hash IS NULL AND NEW.hash IS NOT NULL
     AND (OLD.id, OLD.user_id, OLD.type, OLD.action, OLD.target_type, OLD.target_id, OLD.message,
          OLD.details, OLD.ip, OLD.created_at)
         IS NOT DISTINCT FROM
         (NEW.id, NEW.user_id, NEW.type, NEW.action, NEW.target_type, NEW.target_id, NEW.message,
          NEW.details, NEW.ip, NEW.created_at) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit events cannot be changed or removed (% refused)', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;

CREATE TRIGGER audit_events_before_insert BEFORE INSERT ON audit_events
  FOR EACH ROW EXECUTE FUNCTION quire_audit_before_insert();
CREATE CONSTRAINT TRIGGER audit_events_seal AFTER INSERT ON audit_events
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.hash IS NULL) EXECUTE FUNCTION quire_audit_seal();
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION quire_audit_append_only();
CREATE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION quire_audit_append_only();

-- The audit search (message and action, partial words).
CREATE INDEX "audit_events_search_trgm_idx" ON "audit_events" USING gin (lower("action" || ' ' || "message") gin_trgm_ops);


-- ---------------------------------------------------------------------------------------------
-- Search: files.search_vector, kept by triggers in the transaction of every change.
--
-- The vector of a file is its name (weight A), its metadata values and related tags (B), its
-- comments (C) and the text extracted from its current version (D, computed once per version
-- by the search.extract job into version_texts.search_vector), in the text search
-- configuration named by companies.search_language (simple when that names none).

CREATE FUNCTION quire_search_config() RETURNS regconfig
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(
    (SELECT c.oid::regconfig FROM companies co JOIN pg_ts_config c ON c.cfgname = co.search_language
      ORDER BY co.id LIMIT 1),
    'simple'::regconfig)
$$;

-- The vector of extracted text, kept under the 1 MB a tsvector may hold (positions are
-- dropped, then the text shortened, when a long text would not fit).
CREATE FUNCTION quire_text_vector(p_text text) RETURNS tsvector
LANGUAGE plpgsql STABLE AS $$
DECLARE
  cfg regconfig := quire_search_config();
  v tsvector;
BEGIN
  IF p_text IS NULL OR p_text = '' THEN RETURN NULL; END IF;
  BEGIN
    v := to_tsvector(cfg, p_text);
  EXCEPTION WHEN program_limit_exceeded THEN
    v := NULL;
  END;
  IF v IS NULL OR pg_column_size(v) > 600000 THEN
    v := strip(to_tsvector(cfg, left(p_text, 200000)));
  END IF;
  RETURN v;
END
$$;

CREATE FUNCTION quire_file_search_vector(p_file integer, p_name text, p_version integer) RETURNS tsvector
LANGUAGE sql STABLE AS $$
  SELECT setweight(to_tsvector(s.cfg, coalesce(p_name, '')), 'A')
      || setweight(to_tsvector(s.cfg, left(coalesce((
           SELECT string_agg(concat_ws(' ', v.value_text, v.value_number::text, v.value_date::text, i.label,
                                       u.first_name, u.last_name, u.username), ' ')
             FROM file_field_values v
             LEFT JOIN value_list_items i ON i.id = v.value_item_id
             LEFT JOIN users u ON u.id = v.value_user_id
            WHERE v.file_id = p_file), ''), 100000)), 'B')
      || setweight(to_tsvector(s.cfg, left(coalesce((
           SELECT string_agg(t.name, ' ') FROM file_tags ft JOIN related_tags t ON t.id = ft.tag_id
            WHERE ft.file_id = p_file), ''), 20000)), 'B')
      || setweight(to_tsvector(s.cfg, left(coalesce((
           SELECT string_agg(c.body, ' ') FROM comments c WHERE c.file_id = p_file AND c.deleted_at IS NULL), ''),
           100000)), 'C')
      || coalesce((SELECT vt.search_vector FROM version_texts vt
                    WHERE vt.version_id = p_version AND vt.status = 'done'), ''::tsvector)
    FROM (SELECT quire_search_config() AS cfg) s
$$;

CREATE FUNCTION quire_files_search_vector_row() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_vector := quire_file_search_vector(NEW.id, NEW.name, NEW.current_version_id);
  RETURN NEW;
END
$$;

CREATE TRIGGER files_search_vector BEFORE INSERT OR UPDATE OF name, current_version_id ON files
  FOR EACH ROW EXECUTE FUNCTION quire_files_search_vector_row();

-- Refreshes the files named by the changed rows of file_field_values, file_tags, comments
-- (their file_id), once per statement.
CREATE FUNCTION quire_refresh_files_of_rows() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE files f SET search_vector = quire_file_search_vector(f.id, f.name, f.current_version_id)
     WHERE f.id IN (SELECT DISTINCT n.file_id FROM new_rows n);
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE files f SET search_vector = quire_file_search_vector(f.id, f.name, f.current_version_id)
     WHERE f.id IN (SELECT n.file_id FROM new_rows n UNION SELECT o.file_id FROM old_rows o);
  ELSE
    UPDATE files f SET search_vector = quire_file_search_vector(f.id, f.name, f.current_version_id)
     WHERE f.id IN (SELECT DISTINCT o.file_id FROM old_rows o);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER file_field_values_search_ins AFTER INSERT ON file_field_values
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION quire_refresh_files_of_rows();
CREATE TRIGGER file_field_values_search_upd AFTER UPDATE ON file_field_values
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION quire_refresh_files_of_rows();
CREATE TRIGGER file_field_values_search_del AFTER DELETE ON file_field_values
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION quire_refresh_files_of_rows();
CREATE TRIGGER file_tags_search_ins AFTER INSERT ON file_tags
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION quire_refresh_files_of_rows();
CREATE TRIGGER file_tags_search_upd AFTER UPDATE ON file_tags
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION quire_refresh_files_of_rows();
CREATE TRIGGER file_tags_search_del AFTER DELETE ON file_tags
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION quire_refresh_files_of_rows();
CREATE TRIGGER comments_search_ins AFTER INSERT ON comments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION quire_refresh_files_of_rows();
CREATE TRIGGER comments_search_upd AFTER UPDATE ON comments
  REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION quire_refresh_files_of_rows();
CREATE TRIGGER comments_search_del AFTER DELETE ON comments
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION quire_refresh_files_of_rows();

-- A renamed tag or value-list item, new extracted text: the files that show it.
CREATE FUNCTION quire_refresh_files_of_tag() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE files f SET search_vector = quire_file_search_vector(f.id, f.name, f.current_version_id)
   WHERE f.id IN (SELECT ft.file_id FROM file_tags ft WHERE ft.tag_id = NEW.id);
  RETURN NULL;
END
$$;
CREATE TRIGGER related_tags_search AFTER UPDATE ON related_tags
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION quire_refresh_files_of_tag();

CREATE FUNCTION quire_refresh_files_of_item() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE files f SET search_vector = quire_file_search_vector(f.id, f.name, f.current_version_id)
   WHERE f.id IN (SELECT v.file_id FROM file_field_values v WHERE v.value_item_id = NEW.id);
  RETURN NULL;
END
$$;
CREATE TRIGGER value_list_items_search AFTER UPDATE ON value_list_items
  FOR EACH ROW WHEN (OLD.label IS DISTINCT FROM NEW.label) EXECUTE FUNCTION quire_refresh_files_of_item();

CREATE FUNCTION quire_refresh_files_of_text() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE files f SET search_vector = quire_file_search_vector(f.id, f.name, f.current_version_id)
   WHERE f.current_version_id = NEW.version_id;
  RETURN NULL;
END
$$;
CREATE TRIGGER version_texts_search AFTER INSERT OR UPDATE OF status, search_vector ON version_texts
  FOR EACH ROW EXECUTE FUNCTION quire_refresh_files_of_text();

-- A new search language: every vector is rebuilt by the search.reindex job (in batches).
CREATE FUNCTION quire_search_language_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO jobs (kind, payload, key, run_at, created_at)
  VALUES ('search.reindex', '{}'::jsonb, 'search.reindex', now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
  ON CONFLICT (key) WHERE status IN ('queued', 'running') DO NOTHING;
  PERFORM pg_notify('quire_jobs', 'search.reindex');
  RETURN NULL;
END
$$;
CREATE TRIGGER companies_search_language AFTER UPDATE OF search_language ON companies
  FOR EACH ROW WHEN (OLD.search_language IS DISTINCT FROM NEW.search_language)
  EXECUTE FUNCTION quire_search_language_changed();

-- The files that exist already.
UPDATE files SET search_vector = quire_file_search_vector(id, name, current_version_id);

-- Trigram search over the matching text of values (partial words in metadata).
CREATE INDEX "file_field_values_text_trgm_idx" ON "file_field_values" USING gin (lower("value_text") gin_trgm_ops);
