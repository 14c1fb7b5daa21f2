// pnpm bench:search [--files N] [--runs N] [--keep DIR] — the search and audit calls on a realistic
// data set (default 100,000 files, scripts/seed-bulk.ts), each through the API (app.inject: token lookup, guard,
// validation, service, serializer) and, as the baseline, the same SQL statements run bare
// through `pg` in the same process, against the same throw-away embedded PostgreSQL. Prints
// p50 and p95 of both and the ratio of the p95s. Goal: ratio at most 1.5 and p95 under 100 ms.
// For the file lists, filters and searches also the plainest indexed query for the same page
// with no rights check (the same statements in the 'all' scope, an administrator's cost):
// "x plain" is the API's p95 over that one's (goal <= 2, issue 29). `--keep DIR` keeps the
// database in DIR and seeds it only on the first run with that many files (later runs reuse
// it; it prints its address, for EXPLAIN); `--only TEXT` times the calls whose label holds
// TEXT. Options are given as `--files N` or `--files=N`.
//
// Over 400 lines on purpose: one table of cases, each an API call beside the SQL it runs bare
// and its plainest form; split, the cases would lose the set-up they share.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Prisma } from '@quire/db';
import pg from 'pg';
import { seedBulk } from '../scripts/seed-bulk.js';
import { auditKeyOf } from '../src/lib/audit-chain.js';
import { scopeOf } from '../src/lib/visibility.js';
import { seenOfRow, seenSetsSql } from '../src/lib/visible-sets.js';
import { sessionByTokenHashSql } from '../src/modules/account/account.repository.js';
import * as auditRepo from '../src/modules/audit/audit.repository.js';
import * as repo from '../src/modules/dashboard-and-search/dashboard-and-search.repository.js';
import * as searchRepo from '../src/modules/dashboard-and-search/search.repository.js';
import * as conditions from '../src/modules/dashboard-and-search/search-conditions.repository.js';
import { categoryPageSql } from '../src/modules/file/file-lists.repository.js';
import { storedValuesSql } from '../src/modules/file/file-values.repository.js';
import { textPdf } from '../test/documents.js';
import { createUser, loginAs } from '../test/factories.js';
import { startBenchApp } from './bench-app.js';

/** The value of `--name N` or `--name=N`, if given. */
function option(name: string): string | undefined {
  const at = process.argv.findIndex((a) => a === `--${name}` || a.startsWith(`--${name}=`));
  if (at === -1) return undefined;
  const arg = process.argv[at] as string;
  return arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : process.argv[at + 1];
}
const FILES = Number(option('files') ?? 100_000);
const RUNS = Number(option('runs') ?? 200);
const KEEP = option('keep');
const ONLY = option('only');
for (const [name, value] of [
  ['files', FILES],
  ['runs', RUNS],
] as const)
  if (!(Number.isInteger(value) && value > 0)) throw new Error(`--${name} takes a whole number above 0`);

const bench = await startBenchApp('search', { QUIRE_ROLE: 'api' }, KEEP ? { keep: KEEP } : {});
try {
  const { url, db, app } = bench;
  const admin = await createUser(db, { accessType: 'COMPANY ADMIN' });
  const staffUser = await createUser(db, { accessType: 'General staff' });

  const seededMark = KEEP ? path.join(bench.dir, 'seeded.json') : null;
  if (seededMark && existsSync(seededMark) && JSON.parse(readFileSync(seededMark, 'utf8')).files === FILES) {
    console.info(`Reusing the ${FILES.toLocaleString('en')} files seeded in ${bench.dir} (${url})`);
  } else {
    if (seededMark && existsSync(seededMark)) throw new Error(`${bench.dir} was seeded with other --files`);
    console.info(`Seeding ${FILES.toLocaleString('en')} files…`);
    const stored = await app.deps.blobs.put(textPdf(['bench']));
    await seedBulk(url, {
      files: FILES,
      auditKey: auditKeyOf(app.deps.secretKey),
      blob: { id: stored.id, size: stored.size, mimeType: 'application/pdf' },
      log: (l) => console.info(l),
    });
    if (seededMark) {
      writeFileSync(seededMark, JSON.stringify({ files: FILES }));
      console.info(`Kept in ${bench.dir} (${url})`);
    }
  }
  // The staff member is in one seeded team: they see the categories granted to it.
  const team = await db.group.findFirstOrThrow({
    where: { name: { contains: ' team 1' } },
    orderBy: { id: 'asc' },
  });
  await db.groupMember.create({ data: { groupId: team.id, userId: staffUser.id } });
  const adminToken = await loginAs(app, admin);
  const staffToken = await loginAs(app, staffUser, 'user');
  const staffAuth = { userId: staffUser.id, role: 'user', accessType: 'General staff' } as Parameters<
    typeof scopeOf
  >[0];
  const adminAuth = { userId: admin.id, role: 'admin', accessType: 'COMPANY ADMIN' } as Parameters<
    typeof scopeOf
  >[0];
  const staffScope = scopeOf(staffAuth);
  const adminScope = scopeOf(adminAuth);
  // No rights check: every live category, read-only (what an Auditor or administrator sees).
  const plainScope = { kind: 'all', write: false, userId: admin.id } as const;

  const visibleTop = (
    await db.$queryRawUnsafe<Array<{ id: number }>>(
      `SELECT c.id FROM categories c WHERE c.parent_id IS NULL AND c.id IN (SELECT category_id FROM quire_category_rights(${staffUser.id})) ORDER BY c.id LIMIT 1`,
    )
  )[0]?.id as number;
  // The category the staff member sees with the most files of its own (a category page).
  const fullest = (
    await db.$queryRawUnsafe<Array<{ id: number; n: bigint }>>(
      `SELECT f.category_id AS id, count(*) AS n FROM files f
        WHERE f.deleted_at IS NULL AND f.index_status = 'indexed'
          AND f.category_id IN (SELECT category_id FROM quire_category_rights(${staffUser.id}))
        GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1`,
    )
  )[0] as { id: number; n: bigint };
  const numberField = await db.metadataField.findFirstOrThrow({
    where: { type: 'number', name: { startsWith: 'Bulk ' } },
  });
  const selectField = await db.metadataField.findFirstOrThrow({
    where: { type: 'select', name: { startsWith: 'Bulk ' } },
  });
  const selectItems = await db.valueListItem.findMany({
    where: { valueListId: selectField.valueListId as number, key: { in: [3, 4] } },
  });

  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const bare = async (...statements: Prisma.Sql[]) => {
    await Promise.all(statements.map((s) => pool.query(s.text, s.values as unknown[])));
  };

  interface Case {
    label: string;
    api: () => Promise<{ statusCode: number; body: string }>;
    sql: () => Promise<void>;
    /**
     * The plainest indexed query for the same page with no rights check (what an
     * administrator's list costs: the same statements in the 'all' scope), for file lists,
     * filters and searches. Goal: the API's p95 at most 2x this one's.
     */
    plain?: () => Promise<void>;
    /** Whose call it is (the bare side reads that session first). */
    as: string;
  }
  // Every signed-in call first reads its session (one statement): the bare side runs it too,
  // so a ratio compares the same statements, not a call against part of its SQL.
  const sessionOf = (token: string) => {
    const statement = sessionByTokenHashSql(createHash('sha256').update(token).digest('hex'));
    return () => pool.query(statement.text, statement.values as unknown[]);
  };
  const session = new Map([adminToken, staffToken].map((token) => [token, sessionOf(token)]));
  const inject = (token: string, method: 'GET' | 'POST', u: string, payload?: object) => () =>
    app.inject({
      method,
      url: u,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });
  // The fields the fullest category shows as list columns, and one page's rows then their values.
  const listFieldIds = (
    JSON.parse(
      (await inject(staffToken, 'GET', `/api/fileIncategory/${fullest.id}?page=1&quantity=1`)()).body,
    ).data.columns as Array<{ field_id: number }>
  ).map((c) => c.field_id);
  const pageWithValues = async (s: { rows: Prisma.Sql; count: Prisma.Sql }) => {
    const [rows] = await Promise.all([
      pool.query<{ id: number }>(s.rows.text, s.rows.values as unknown[]),
      pool.query(s.count.text, s.count.values as unknown[]),
    ]);
    const values = storedValuesSql(
      rows.rows.map((r) => r.id),
      listFieldIds,
    );
    await pool.query({ name: values.name, text: values.sql.text, values: values.sql.values as unknown[] });
  };

  const win = (quantity: number) => ({ limit: quantity, offset: 0 });
  // The staff member's sets, read in one named statement as readSeenSets does.
  const staffSets = async () => {
    if (staffScope.kind !== 'grants') throw new Error('the staff member reads by grants');
    const sets = seenSetsSql(staffScope);
    const row = (
      await pool.query({ name: 'quire_seen_sets', text: sets.text, values: sets.values as unknown[] })
    ).rows[0];
    return seenOfRow(staffScope, row);
  };
  // The same sets kept between calls, as a category's page keeps them (withKeptSeenSets).
  const keptStaffSets = staffSets();
  // The caller's sets (and the filter's category tree), read in one named statement as the
  // service does (none for 'all') and kept between calls as it keeps them (byKeptSets):
  // each call then runs the page and its count, which answer their epoch beside their rows.
  const keptRows = new Map<string, Parameters<typeof searchRepo.seenOf>[2]>();
  const findBare = async (
    scope: typeof staffScope,
    terms: conditions.SearchTerms | null,
    filter: conditions.FileFilter,
    w: { limit: number; offset: number },
  ) => {
    const seenSql = searchRepo.seenSql(scope, filter);
    const key = seenSql ? `${seenSql.sql.text}|${JSON.stringify(seenSql.sql.values)}` : '';
    let row = keptRows.get(key);
    if (seenSql && !row) {
      row = (
        await pool.query({
          name: seenSql.name,
          text: seenSql.sql.text,
          values: seenSql.sql.values as unknown[],
        })
      ).rows[0];
      keptRows.set(key, row);
    }
    const read = searchRepo.seenOf(scope, filter, row);
    const sql = searchRepo.findFilesSql(read.seen, terms, read.filter, w);
    return Promise.all([
      pool.query(sql.rows.text, sql.rows.values as unknown[]),
      pool.query(sql.count.text, sql.count.values as unknown[]),
    ]);
  };
  const searchBare =
    (scope: typeof staffScope, text: string, filter: conditions.FileFilter, quantity: number) => async () => {
      const terms = text ? conditions.searchTerms(text) : null;
      const [rows] = await findBare(scope, terms, filter, win(quantity));
      if (terms && rows.rows.length) {
        const s = searchRepo.snippetsSql(
          rows.rows.map((r) => r.id),
          terms,
          text.toLowerCase().match(/[\p{L}\p{N}]+/gu)?.[0] ?? '',
        );
        await pool.query(s.text, s.values as unknown[]);
      }
    };
  // A text search by `token` (whose scope is `scope`) at `url`: the call, its statements, and
  // the same statements in the plain scope, each for the first `quantity` hits.
  const searchCase = (
    label: string,
    token: string,
    scope: typeof staffScope,
    url: string,
    text: string,
    quantity: number,
  ): Case => ({
    label,
    as: token,
    api: inject(token, 'GET', `${url}?search=${encodeURIComponent(text)}`),
    sql: searchBare(scope, text, {}, quantity),
    plain: searchBare(plainScope, text, {}, quantity),
  });
  const fieldFilter: conditions.FieldCondition[] = [
    { fieldId: numberField.id, kind: 'number', min: 1000, max: 20000 },
    { fieldId: selectField.id, kind: 'items', itemIds: selectItems.map((i) => i.id) },
  ];
  const bulkUser = (await db.user.findFirstOrThrow({ where: { username: { startsWith: 'bulk' } } })).id;
  const head = await auditRepo.chainHead(db);
  const deepCursor = Math.floor((head?.seq ?? 0) / 2);

  // The last file of the staff member's page 49 of the category list, as a cursor.
  const page49 = (
    await app.inject({
      method: 'POST',
      url: '/api/filter-files?page=49&quantity=20',
      headers: { authorization: `Bearer ${staffToken}` },
      payload: { category_id: visibleTop },
    })
  ).json().data as { next_cursor: string };
  const deepCursorOfList = page49.next_cursor;
  const [deepMs, deepId] = deepCursorOfList.split('.');
  const deepWindow = { limit: 20, offset: 0, before: { at: new Date(Number(deepMs)), id: Number(deepId) } };
  const cases: Case[] = [
    {
      label: 'category list (staff, 20)',
      as: staffToken,
      api: inject(staffToken, 'POST', '/api/filter-files?page=1&quantity=20', { category_id: visibleTop }),
      sql: searchBare(staffScope, '', { categoryId: visibleTop, includeSubcategories: true }, 20),
      plain: searchBare(plainScope, '', { categoryId: visibleTop, includeSubcategories: true }, 20),
    },
    {
      label: 'category list, page 50',
      as: staffToken,
      api: inject(staffToken, 'POST', '/api/filter-files?page=50&quantity=20', { category_id: visibleTop }),
      sql: async () => {
        await findBare(
          staffScope,
          null,
          { categoryId: visibleTop, includeSubcategories: true },
          { limit: 20, offset: 980 },
        );
      },
      plain: async () => {
        await findBare(
          plainScope,
          null,
          { categoryId: visibleTop, includeSubcategories: true },
          { limit: 20, offset: 980 },
        );
      },
    },
    {
      // The same page as page 50, reached by the cursor of page 49's last file (keyset paging).
      label: 'category list, page 50 by cursor',
      as: staffToken,
      api: inject(staffToken, 'POST', `/api/filter-files?quantity=20&cursor=${deepCursorOfList}`, {
        category_id: visibleTop,
      }),
      sql: async () => {
        await findBare(staffScope, null, { categoryId: visibleTop, includeSubcategories: true }, deepWindow);
      },
      plain: async () => {
        await findBare(plainScope, null, { categoryId: visibleTop, includeSubcategories: true }, deepWindow);
      },
    },
    {
      // The page is its files with their values in the category's list columns: the SQL and
      // plain sides read the rows and the count, then the rows' values; the API also reads the
      // category with its fields, in one statement (the caller's sets it keeps between calls, as
      // the SQL side).
      label: `category page (fileIncategory, ${fullest.n} files)`,
      as: staffToken,
      api: inject(staffToken, 'GET', `/api/fileIncategory/${fullest.id}?page=1&quantity=20`),
      sql: async () => {
        const s = categoryPageSql(await keptStaffSets, fullest.id, { fields: [] }, { page: 1, quantity: 20 });
        await pageWithValues(s);
      },
      plain: async () => {
        const s = categoryPageSql(
          { kind: 'all', userId: admin.id },
          fullest.id,
          { fields: [] },
          { page: 1, quantity: 20 },
        );
        await pageWithValues(s);
      },
    },
    searchCase('header search "invo" (staff)', staffToken, staffScope, '/api/search-files', 'invo', 8),
    searchCase('header search "acme" (admin)', adminToken, adminScope, '/api/search-files', 'acme', 8),
    searchCase(
      'search page "harbour memo" (staff, 100)',
      staffToken,
      staffScope,
      '/api/all-search-files',
      'harbour memo',
      100,
    ),
    {
      label: 'filter number+select (staff)',
      as: staffToken,
      api: inject(staffToken, 'POST', '/api/filter-files', {
        fields: [
          { field_id: numberField.id, min: 1000, max: 20000 },
          { field_id: selectField.id, keys: [3, 4] },
        ],
      }),
      sql: async () => {
        const ids = await pool.query(
          'SELECT id, type, value_list_id FROM metadata_fields WHERE id = ANY($1) AND deleted_at IS NULL',
          [[numberField.id, selectField.id]],
        );
        void ids;
        await pool.query('SELECT id FROM value_list_items WHERE value_list_id = $1 AND key = ANY($2)', [
          selectField.valueListId,
          [3, 4],
        ]);
        await searchBare(staffScope, '', { fields: fieldFilter }, 20)();
      },
      plain: searchBare(plainScope, '', { fields: fieldFilter }, 20),
    },
    {
      label: 'dashboard (staff, 4 tables)',
      as: staffToken,
      api: inject(staffToken, 'GET', '/api/dashboard/table'),
      sql: async () => {
        // The caller's sets, kept between calls (as the service keeps them), then the four tables by them.
        const seen = await keptStaffSets;
        await Promise.all(
          (['previewed', 'checked_out', 'recent', 'assigned'] as const).map((t) => {
            const s = repo.dashboardSql[t](seen, win(10));
            return bare(s.rows, s.count);
          }),
        );
      },
    },
    {
      label: 'audit trail, newest 20',
      as: adminToken,
      api: inject(adminToken, 'GET', '/api/audits/activity'),
      sql: () => bare(auditRepo.activitySql({}, { limit: 20, offset: 0 }), auditRepo.headSql()),
    },
    {
      label: 'audit, type+search',
      as: adminToken,
      api: inject(adminToken, 'GET', '/api/audits/activity?type=security&search=denied'),
      sql: () =>
        bare(
          auditRepo.activitySql({ type: 'security', search: 'denied' }, { limit: 20, offset: 0 }),
          auditRepo.countSql({ type: 'security', search: 'denied' }),
        ),
    },
    {
      label: 'audit, one user, 30 days',
      as: adminToken,
      api: inject(
        adminToken,
        'GET',
        `/api/audits/activity?user_id=${bulkUser}&dateRange=${new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10)},`,
      ),
      sql: async () => {
        const u = bulkUser;
        const f = {
          userId: u,
          from: new Date(`${new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`),
        };
        await pool.query('SELECT count(*) FROM users WHERE id = $1', [u]);
        await bare(auditRepo.activitySql(f, { limit: 20, offset: 0 }), auditRepo.countSql(f));
      },
    },
    {
      label: 'audit, deep page (cursor)',
      as: adminToken,
      api: inject(adminToken, 'GET', `/api/audits/activity?cursor=${deepCursor}`),
      sql: () =>
        bare(auditRepo.activitySql({}, { limit: 20, offset: 0, beforeSeq: deepCursor }), auditRepo.headSql()),
    },
  ];

  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] as number;
  };
  const time = async (fn: () => Promise<unknown>) => {
    const t0 = process.hrtime.bigint();
    await fn();
    return Number(process.hrtime.bigint() - t0) / 1e6;
  };

  console.info(
    `\nQuire search benchmark: ${FILES.toLocaleString('en')} files, ${RUNS} runs each (ms; API = app.inject, SQL = the same statements through pg)\n`,
  );
  console.info(
    `${'call'.padEnd(36)} ${'API p50'.padStart(8)} ${'API p95'.padStart(8)} ${'SQL p50'.padStart(8)} ${'SQL p95'.padStart(8)} ${'p95 ratio'.padStart(9)} ${'plain p50'.padStart(10)} ${'plain p95'.padStart(10)} ${'x plain'.padStart(10)}`,
  );
  for (const c of cases.filter((c) => !ONLY || c.label.includes(ONLY))) {
    const check = await c.api();
    if (check.statusCode !== 200)
      throw new Error(`${c.label}: ${check.statusCode} ${check.body.slice(0, 300)}`);
    for (let i = 0; i < 20; i++) {
      await c.api();
      await c.sql();
    }
    const api: number[] = [];
    const sql: number[] = [];
    const plain: number[] = [];
    // Interleaved, so all see the same machine load.
    for (let i = 0; i < RUNS; i++) {
      api.push(await time(c.api));
      sql.push(
        await time(async () => {
          await session.get(c.as)?.();
          await c.sql();
        }),
      );
      if (c.plain) plain.push(await time(c.plain));
    }
    const plainCols = plain.length
      ? `${pct(plain, 50).toFixed(1).padStart(10)} ${pct(plain, 95).toFixed(1).padStart(10)} ${(pct(api, 95) / pct(plain, 95)).toFixed(2).padStart(10)}`
      : `${'-'.padStart(10)} ${'-'.padStart(10)} ${'-'.padStart(10)}`;
    console.info(
      `${c.label.padEnd(36)} ${pct(api, 50).toFixed(1).padStart(8)} ${pct(api, 95).toFixed(1).padStart(8)} ${pct(
        sql,
        50,
      )
        .toFixed(1)
        .padStart(
          8,
        )} ${pct(sql, 95).toFixed(1).padStart(8)} ${(pct(api, 95) / pct(sql, 95)).toFixed(3).padStart(9)} ${plainCols}`,
    );
  }
  await pool.end();
} finally {
  await bench.close();
}
