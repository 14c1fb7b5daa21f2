// A realistic data set for the search and audit benchmarks (pnpm db:seed --files N, pnpm
// bench:search): per 100,000 files, 500 categories in a two-level tree, 200 users in 10
// groups with grants, 12 metadata fields (1,000,000 values), tags, comments, extracted text
// for one file in ten, and 2,000,000 audit events in the hash chain. Everything is written
// set-based (INSERT … SELECT over generate_series, COPY for the audit events), never row by row; the
// audit events are chained here (the same keyed hash as the database's, lib/audit-chain.ts) and
// loaded with quire.audit_reload, the documented bulk-load switch of decision 015.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { auditHash, keyedAuditHash } from '../src/lib/audit-chain.js';

interface BulkOptions {
  files: number;
  /** Audit events (default 20 per file). */
  auditEvents?: number;
  log?: (line: string) => void;
  /**
   * The audit key (auditKeyOf): events are chained keyed as Quire seals them. Without it they
   * get the plain pre-0012 hash, which verifies only on a chain nothing keyed was written to.
   */
  auditKey?: Buffer;
  /** The content every seeded version points at (a stored blob's id, size and type). */
  blob: { id: string; size: number; mimeType: string };
}

const WORDS = (
  'invoice contract report minutes budget forecast policy memo proposal agreement statement ' +
  'receipt order delivery schedule audit review summary plan quote tender claim payroll ledger ' +
  'offer design drawing manual procedure checklist certificate licence permit survey analysis ' +
  'request approval notice letter brief agenda roadmap strategy tax insurance lease warranty'
).split(' ');
const PLACES = 'north south east west central harbour valley river summit lakeside'.split(' ');
/** A value in COPY's text format (backslash, tab and line breaks escaped). */
const copyField = (v: string | number) =>
  String(v).replace(
    /[\\\t\n\r]/g,
    (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c] as string,
  );

/** The triggers that keep files.search_vector up to date as rows are added (migrations 0011, 0016). */
const SEARCH_TRIGGERS: Array<[string, string]> = [
  ['files', 'files_search_vector'],
  ['files', 'files_search_vector_change'],
  ['file_field_values', 'file_field_values_search_ins'],
  ['file_tags', 'file_tags_search_ins'],
  ['comments', 'comments_search_ins'],
  ['version_texts', 'version_texts_search'],
];
const CUSTOMERS = 'acme globex initech umbrella hooli stark wayne wonka tyrell cyberdyne'.split(' ');

export async function seedBulk(url: string, o: BulkOptions): Promise<void> {
  const log = o.log ?? (() => {});
  const files = o.files;
  const categories = Math.max(10, Math.round((files / 100_000) * 500));
  const top = Math.max(2, Math.round(categories / 10));
  const users = 200;
  const events = o.auditEvents ?? files * 20;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const q = (sql: string, values: unknown[] = []) => client.query(sql, values);
  const t0 = Date.now();
  const step = async (label: string, fn: () => Promise<unknown>) => {
    const s = Date.now();
    await fn();
    log(`  ${label} (${((Date.now() - s) / 1000).toFixed(1)} s)`);
  };
  try {
    const company = (await q('SELECT id FROM companies ORDER BY id LIMIT 1')).rows[0]?.id;
    if (!company) throw new Error('No company yet: start Quire once (or run the plain seed) first');
    const run = Date.now().toString(36);

    await step(`${users} users in 10 groups`, async () => {
      await q(
        `INSERT INTO users (company_id, username, email, first_name, last_name, login_role, access_type, password_hash, updated_at)
         SELECT $1, 'bulk' || $2 || '.' || g, 'bulk' || $2 || '.' || g || '@example.test',
                (ARRAY['Ann','Ben','Cleo','Dan','Eva','Finn','Gail','Hugo','Iris','Jon'])[1 + g % 10],
                'Person ' || g, 'user', 'GENERAL_STAFF', NULL, now()
           FROM generate_series(1, $3) g`,
        [company, run, users],
      );
      await q(
        `INSERT INTO groups (name, description, updated_at)
         SELECT 'Bulk ' || $1 || ' team ' || g, 'Seeded', now() FROM generate_series(1, 10) g`,
        [run],
      );
      await q(
        `INSERT INTO group_members (group_id, user_id)
         SELECT gr.id, u.id FROM users u
           JOIN groups gr ON gr.name = 'Bulk ' || $1 || ' team ' || (1 + (u.id % 10))
          WHERE u.username LIKE 'bulk' || $1 || '.%'`,
        [run],
      );
    });

    await step(`${categories} categories with grants`, async () => {
      await q(
        `INSERT INTO categories (name, position, updated_at)
         SELECT initcap(($1::text[])[1 + g % array_length($1::text[], 1)]) || ' ' || initcap(($2::text[])[1 + g % array_length($2::text[], 1)]) || ' ' || $3 || '-' || g,
                g, now() FROM generate_series(1, $4) g`,
        [WORDS, PLACES, run, top],
      );
      await q(
        `INSERT INTO categories (parent_id, name, position, updated_at)
         SELECT p.id, 'Folder ' || g || ' of ' || p.name, g, now()
           FROM categories p, generate_series(1, $2) g
          WHERE p.parent_id IS NULL AND p.name LIKE '%' || $1 || '-%'`,
        [run, Math.round(categories / top) - 1],
      );
      // Each group may view one top-level category in five (inherited by its folders).
      await q(
        `INSERT INTO category_permissions (category_id, group_id, can_view, can_upload, updated_at)
         SELECT c.id, gr.id, true, true, now()
           FROM categories c JOIN groups gr ON gr.name LIKE 'Bulk ' || $1 || ' team %'
          WHERE c.parent_id IS NULL AND c.name LIKE '%' || $1 || '-%' AND (c.id + gr.id) % 5 = 0`,
        [run],
      );
    });

    await step('12 metadata fields, a value list of 50 items', async () => {
      const list = (
        await q(
          `INSERT INTO value_lists (name, updated_at) VALUES ('Bulk status ' || $1, now()) RETURNING id`,
          [run],
        )
      ).rows[0].id;
      await q(
        `INSERT INTO value_list_items (value_list_id, key, label, position)
         SELECT $1, g, 'Status ' || g, g FROM generate_series(1, 50) g`,
        [list],
      );
      await q(
        `INSERT INTO metadata_fields (name, type, value_list_id, position, updated_at)
         SELECT 'Bulk ' || $1 || ' field ' || g,
                (ARRAY['text','number','date','select']::"FieldType"[])[1 + g % 4],
                CASE WHEN g % 4 = 3 THEN $2::int END, g, now()
           FROM generate_series(0, 11) g`,
        [run, list],
      );
      await q(
        `INSERT INTO category_fields (category_id, field_id, position)
         SELECT c.id, f.id, f.position FROM categories c, metadata_fields f
          WHERE c.name LIKE '%' || $1 || '-%' AND f.name LIKE 'Bulk ' || $1 || ' field %'`,
        [run],
      );
    });

    await q(`INSERT INTO blobs (id, size, mime_type) VALUES ($1, $2, $3) ON CONFLICT (id) DO NOTHING`, [
      o.blob.id,
      o.blob.size,
      o.blob.mimeType,
    ]);

    await q(
      `INSERT INTO related_tags (category_id, name, updated_at)
       SELECT c.id, t, now() FROM categories c, unnest(ARRAY['urgent','archived']) t WHERE c.name LIKE '%' || $1 || '-%'`,
      [run],
    );

    // Files in chunks, one transaction each. The search triggers are off inside it (a trigger
    // disabled in a transaction is never seen so by another one: ALTER TABLE locks the table to
    // the commit): they rebuilt each file's vector once per table it has rows in, and
    // version_texts' once per row. Each file's vector is written once at the end instead, with
    // the same function.
    const chunk = 20_000;
    await step(`${files} files with versions, ${files * 10} metadata values, tags, comments`, async () => {
      for (let from = 1; from <= files; from += chunk) {
        const to = Math.min(files, from + chunk - 1);
        await q('BEGIN');
        for (const [table, trigger] of SEARCH_TRIGGERS)
          await q(`ALTER TABLE ${table} DISABLE TRIGGER ${trigger}`);
        await q(
          'CREATE TEMP TABLE seeded (id int PRIMARY KEY, owner_id int, name text, created_at timestamp) ON COMMIT DROP',
        );
        await q(
          `WITH cats AS (SELECT array_agg(id ORDER BY id) a FROM categories WHERE name LIKE '%' || $1 || '-%'),
                own AS (SELECT array_agg(id ORDER BY id) a FROM users WHERE username LIKE 'bulk' || $1 || '.%'),
                ins AS (
             INSERT INTO files (name, category_id, index_status, owner_id, created_at, updated_at, indexed_at)
             SELECT s.name, s.category_id, 'indexed', s.owner_id, s.created_at, s.created_at, s.created_at FROM (
               SELECT g AS n,
                      cats.a[1 + ((g::bigint * 7919) % array_length(cats.a, 1))::int] AS category_id,
                      own.a[1 + ((g::bigint * 104729) % array_length(own.a, 1))::int] AS owner_id,
                      ($2::text[])[1 + g % array_length($2::text[], 1)] || '-' || ($3::text[])[1 + (g / 7) % array_length($3::text[], 1)]
                        || '-' || ($4::text[])[1 + (g / 3) % array_length($4::text[], 1)] || '-' || g || '.pdf' AS name,
                      (now() AT TIME ZONE 'UTC') - make_interval(mins => ((g::bigint * 1303) % (3 * 365 * 24 * 60))::int) AS created_at
                 FROM cats, own, generate_series($5::int, $6::int) g) s
             ORDER BY s.n
             RETURNING id, owner_id, name, created_at)
           INSERT INTO seeded SELECT id, owner_id, name, created_at FROM ins`,
          [run, WORDS, PLACES, CUSTOMERS, from, to],
        );
        await q(
          `INSERT INTO file_versions (file_id, number, blob_id, original_name, mime_type, size, author_id, created_at)
           SELECT s.id, 1, $1, s.name, $2, $3, s.owner_id, s.created_at FROM seeded s`,
          [o.blob.id, o.blob.mimeType, o.blob.size],
        );
        // Ten values a file: the fields of its category, by type.
        await q(
          `INSERT INTO file_field_values (file_id, field_id, value_text, value_number, value_date, value_item_id, updated_at)
           SELECT s.id, mf.id,
                  CASE WHEN mf.type = 'text' THEN initcap(($2::text[])[1 + (s.id + mf.id) % array_length($2::text[], 1)]) || ' ' || (s.id % 997) END,
                  CASE WHEN mf.type = 'number' THEN ((s.id::bigint * 31 + mf.id) % 100000)::numeric END,
                  CASE WHEN mf.type = 'date' THEN date '2020-01-01' + ((s.id + mf.id * 11) % 2200) END,
                  CASE WHEN mf.type = 'select' THEN (SELECT i.id FROM value_list_items i WHERE i.value_list_id = mf.value_list_id AND i.key = 1 + (s.id + mf.id) % 50) END,
                  now()
             FROM seeded s
             JOIN metadata_fields mf ON mf.name LIKE 'Bulk ' || $1 || ' field %' AND mf.position < 10`,
          [run, CUSTOMERS],
        );
        await q(
          `INSERT INTO file_tags (file_id, tag_id)
           SELECT s.id, t.id FROM seeded s JOIN files f ON f.id = s.id
             JOIN related_tags t ON t.category_id = f.category_id AND t.name = 'urgent'
            WHERE s.id % 5 = 0`,
        );
        await q(
          `INSERT INTO comments (file_id, author_id, body, created_at)
           SELECT s.id, s.owner_id, 'Checked by ' || ($1::text[])[1 + s.id % array_length($1::text[], 1)] || ' for the ' ||
                  ($2::text[])[1 + s.id % array_length($2::text[], 1)] || ' office', s.created_at
             FROM seeded s WHERE s.id % 10 = 3`,
          [CUSTOMERS, PLACES],
        );
        await q(
          `INSERT INTO version_texts (version_id, status, text, extracted_at, search_vector)
           SELECT t.id, 'done', t.text, now(), quire_text_vector(t.text) FROM (
             SELECT v.id,
                    'This ' || ($1::text[])[1 + v.id % array_length($1::text[], 1)] || ' for ' || ($2::text[])[1 + v.id % array_length($2::text[], 1)] ||
                    ' covers the ' || ($3::text[])[1 + v.id % array_length($3::text[], 1)] || ' region. ' ||
                    repeat('Terms and conditions apply to every ' || ($1::text[])[1 + (v.id / 3) % array_length($1::text[], 1)] || ' listed here. ', 20) AS text
               FROM file_versions v JOIN seeded s ON s.id = v.file_id WHERE v.id % 10 = 1) t`,
          [WORDS, CUSTOMERS, PLACES],
        );
        await q(
          `UPDATE files f SET current_version_id = v.id, search_vector = quire_file_search_vector(f.id, f.name, v.id)
             FROM seeded s JOIN file_versions v ON v.file_id = s.id WHERE f.id = s.id`,
        );
        for (const [table, trigger] of SEARCH_TRIGGERS)
          await q(`ALTER TABLE ${table} ENABLE TRIGGER ${trigger}`);
        await q('COMMIT');
        log(`    … ${to} files`);
      }
    });

    await step(`${events} audit events in the hash chain`, async () => {
      await q('SELECT pg_advisory_lock(727362)');
      try {
        const head = (
          await q('SELECT seq, hash FROM audit_events WHERE seq IS NOT NULL ORDER BY seq DESC LIMIT 1')
        ).rows[0];
        let seq = Number(head?.seq ?? 0);
        let prev: string = head?.hash ?? '';
        const firstId = Number((await q(`SELECT nextval('audit_events_id_seq') AS id`)).rows[0].id);
        await q(`SELECT setval('audit_events_id_seq', $1)`, [firstId + events]);
        const userIds = (
          await q(`SELECT id FROM users WHERE username LIKE 'bulk' || $1 || '.%' ORDER BY id`, [run])
        ).rows.map((r) => Number(r.id));
        const kinds: Array<[string, string, string]> = [
          ['auth', 'login.success', 'signed in as user'],
          ['auth', 'logout', 'signed out'],
          ['security', 'access.denied', 'GET /api/files: You are not allowed to read File Control'],
          ['user', 'user.updated', 'Edited user'],
          ['group', 'group.updated', 'Edited group'],
          ['file', 'file.text_extracted', 'Read the text of a file for search'],
        ];
        const start = Date.now() - 365 * 24 * 3_600_000;
        const spacing = Math.floor((365 * 24 * 3_600_000) / events);
        const batch = 20_000;
        // One transaction: its indexes are dropped first and built again at the end, which no
        // other transaction sees (DROP INDEX locks the table to the commit).
        await q('BEGIN');
        await q(`SET LOCAL quire.audit_reload = 'on'`);
        await q(`SET LOCAL maintenance_work_mem = '256MB'`);
        const indexes = (
          await q(
            `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS indexdef
               FROM pg_index i WHERE i.indrelid = 'audit_events'::regclass AND NOT i.indisprimary`,
          )
        ).rows as Array<{ name: string; indexdef: string }>;
        for (const index of indexes) await q(`DROP INDEX ${index.name}`);
        for (let done = 0; done < events; done += batch) {
          const n = Math.min(batch, events - done);
          // COPY's text format, a line an event: no array parameters to build and parse.
          let lines = '';
          for (let i = 0; i < n; i++) {
            const k = done + i;
            const [type, action, text] = kinds[k % kinds.length] as [string, string, string];
            const user = userIds[(k * 37) % userIds.length] as number;
            const id = String(firstId + k);
            seq += 1;
            const created = new Date(start + k * spacing).toISOString().slice(0, 23);
            const row = {
              id,
              seq: String(seq),
              prev_hash: prev,
              user_id: String(user),
              type,
              action,
              target_type: 'file',
              target_id: String(1 + (k % files)),
              message: `${text} (${WORDS[k % WORDS.length]} ${k})`,
              details: null,
              ip: `10.${(k >> 16) & 255}.${(k >> 8) & 255}.${k & 255}`,
              created,
            };
            const hash = o.auditKey ? keyedAuditHash(row, o.auditKey) : auditHash(row);
            lines += `${[id, user, type, action, row.target_type, row.target_id, row.message, row.ip, created, row.seq, prev, hash].map(copyField).join('\t')}\n`;
            prev = hash;
          }
          await pipeline(
            Readable.from([lines]),
            client.query(
              copyFrom(
                'COPY audit_events (id, user_id, type, action, target_type, target_id, message, ip, created_at, seq, prev_hash, hash) FROM STDIN',
              ),
            ),
          );
          if ((done / batch) % 10 === 9) log(`    … ${done + n} events`);
        }
        // Each index built once over every row: kept up to date row by row (the trigram index
        // above all), they made inserting 20,000 events take 4.3 s instead of 0.7 s (EXPLAIN
        // ANALYZE at 2,000,000 events).
        for (const index of indexes) await q(index.indexdef);
        await q('COMMIT');
      } catch (error) {
        await q('ROLLBACK');
        throw error;
      } finally {
        await q('SELECT pg_advisory_unlock(727362)');
      }
    });
    // VACUUM as well: autovacuum would otherwise visit the new tables during the first
    // minutes of use (a benchmark's p95 then measures it), and the visibility map it sets is
    // what a system in use has (index-only scans).
    await step('VACUUM (ANALYZE)', () => q('VACUUM (ANALYZE)'));
    log(`Seeded in ${((Date.now() - t0) / 1000).toFixed(0)} s.`);
  } finally {
    await client.end();
  }
}
