-- The audit chain keyed (decision 015, "Keyed from 0012"). No table changes: only the seal.
--
-- Until now every event's hash was sha256 of its canonical content, which anyone who can
-- write to the database (or edit a backup) can recompute for a rewritten trail. From here
-- on the seal makes it an HMAC-SHA256 of the same content with a key that is not in the
-- database: Quire derives it from APP_SECRET (apps/api/src/lib/audit-chain.ts) and gives it
-- to each of its connections as the setting quire.audit_key (the HMAC's inner and outer pad
-- keys, hex, 128 bytes in all; never stored). A keyed hash is written 'k1:<hex>', so the
-- verifier tells the two schemes apart: events sealed before this migration keep their plain
-- hash and keep verifying; after the first keyed event every event must be keyed, and so
-- must the newest. A connection without the key (a tool writing around Quire) still gets its
-- events sealed, with the plain hash, and the verifier names them.

CREATE FUNCTION quire_audit_canonical(e audit_events) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT quire_audit_field(e.prev_hash) || quire_audit_field(e.seq::text) || quire_audit_field(e.id::text)
    || quire_audit_field(e.user_id::text) || quire_audit_field(e.type) || quire_audit_field(e.action)
    || quire_audit_field(e.target_type) || quire_audit_field(e.target_id) || quire_audit_field(e.message)
    || quire_audit_field(e.details::text) || quire_audit_field(e.ip)
    || quire_audit_field(to_char(e.created_at, 'YYYY-MM-DD"T"HH24:MI:SS.MS'))
$$;

-- HMAC-SHA256 (RFC 2104) from the two pad keys: sha256(opad_key || sha256(ipad_key || message)).
CREATE FUNCTION quire_audit_keyed_hash(e audit_events, pads text) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT 'k1:' || encode(sha256(
    decode(substr(pads, 129, 128), 'hex')
    || sha256(decode(substr(pads, 1, 128), 'hex') || convert_to(quire_audit_canonical(e), 'UTF8'))
  ), 'hex')
$$;

CREATE OR REPLACE FUNCTION quire_audit_seal() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  head record;
  e audit_events;
  pads text := current_setting('quire.audit_key', true);
BEGIN
  IF current_setting('transaction_isolation') <> 'read committed' THEN
    RAISE EXCEPTION 'audit events are written in READ COMMITTED transactions only (the chain head must be read fresh)';
  END IF;
  PERFORM pg_advisory_xact_lock(727362);
  SELECT a.seq, a.hash INTO head FROM audit_events a WHERE a.seq IS NOT NULL ORDER BY a.seq DESC LIMIT 1;
  SELECT * INTO e FROM audit_events WHERE id = NEW.id;
  e.seq := coalesce(head.seq, 0) + 1;
  e.prev_hash := coalesce(head.hash, '');
  IF length(pads) = 256 AND pads ~ '^[0-9a-f]+$' THEN
    e.hash := quire_audit_keyed_hash(e, pads);
  ELSE
    e.hash := quire_audit_hash(e);
  END IF;
  UPDATE audit_events SET seq = e.seq, prev_hash = e.prev_hash, hash = e.hash WHERE id = NEW.id;
  RETURN NULL;
END
$$;
