import { type Db, hasPool, type Prisma, poolOf } from '@quire/db';
import pg from 'pg';
import type { Tx } from './deps.js';

const TIMESTAMP = 1114; // timestamp without time zone: Quire stores UTC in them
const DATE = 1082; // a day: read as its UTC midnight, as Prisma reads it

/**
 * How the hot read paths parse values: like node-postgres, except that `timestamp` columns
 * (which hold UTC, as Prisma writes them) are read as UTC instants rather than local time.
 */
export const sqlTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === TIMESTAMP) return (value: string) => new Date(`${value.replace(' ', 'T')}Z`);
    if (oid === DATE) return (value: string) => new Date(`${value}T00:00:00Z`);
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * Runs one SQL statement (a `Prisma.sql` template: values are parameters, never spliced) on
 * the pool behind `db`, outside any transaction, and answers its rows as node-postgres reads
 * them (timestamps as UTC). For the hot read paths (lists and lookups on every screen), where
 * building the query through Prisma costs more than running it, and for the one hot write
 * that is a transaction of its own (a new upload's statement, file.repository
 * insertUploadsAlone); other writes and transactions go through Prisma. Columns are named in the SQL as the caller wants them
 * (`first_name AS "firstName"`).
 */
export async function queryRows<T>(db: Db, sql: Prisma.Sql, name?: string): Promise<T[]> {
  const { rows } = await poolOf(db).query({
    text: sql.text,
    values: sql.values as unknown[],
    types: sqlTypes,
    ...(name ? { name } : {}),
  });
  return rows as T[];
}

/**
 * Runs one statement where `db` is: on the pool as queryRows does when `db` is the client
 * itself (no transaction: Prisma's query handling skipped), through Prisma inside a
 * transaction. int8 and numeric columns come as strings from the pool and as bigint/Decimal
 * from Prisma: callers read them with Number() or String(), or cast them in the SQL.
 */
export function readRows<T>(db: Db | Tx, sql: Prisma.Sql, name?: string): Promise<T[]> {
  return hasPool(db) ? queryRows<T>(db, sql, name) : db.$queryRaw<T[]>(sql);
}

/** `%text%` for a LIKE on a lower-cased column: the text lower-cased, its wildcards escaped. */
export function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
