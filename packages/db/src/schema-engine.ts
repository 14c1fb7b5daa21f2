/// <reference path="./wasm.d.ts" />
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory, ColumnTypeEnum } from '@prisma/driver-adapter-utils';
import * as bindings from '@prisma/schema-engine-wasm/schema_engine_bg';

// Prisma's schema engine compiled to WebAssembly: migrations and diffs without the native
// binary (which cannot be downloaded offline). The package's main entry imports the .wasm
// as an ES module, which Node 20 cannot, so it is instantiated here by hand, once.
let ready: Promise<void> | undefined;

function loadWasm(): Promise<void> {
  ready ??= (async () => {
    const require = createRequire(import.meta.url);
    const pkgDir = path.dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
    const bytes = await readFile(path.join(pkgDir, 'schema_engine_bg.wasm'));
    const module = await WebAssembly.compile(bytes);
    const instance = await WebAssembly.instantiate(module, { './schema_engine_bg.js': bindings });
    const exports = instance.exports as unknown as { __wbindgen_start: () => void };
    bindings.__wbg_set_wasm(exports);
    exports.__wbindgen_start();
  })();
  return ready;
}

export type SchemaEngine = bindings.SchemaEngine;

export const noFilters = { externalTables: [], externalEnums: [] };

/** Runs `fn` with a schema engine connected to `databaseUrl`, and frees it afterwards. */
export async function withSchemaEngine<T>(
  databaseUrl: string,
  fn: (engine: SchemaEngine) => Promise<T>,
  log: (message: string) => void = () => {},
): Promise<T> {
  await loadWasm();
  const opened: Array<{ dispose: () => Promise<void> }> = [];
  const factory = readCharAsText(new PrismaPg({ connectionString: databaseUrl }), opened);
  const engine = await bindings.SchemaEngine.new(
    { datamodels: undefined },
    log,
    bindMigrationAwareSqlAdapterFactory(factory),
  );
  try {
    return await fn(engine);
  } finally {
    engine.free();
    // Close the engine's connections: a database used as a template must have none.
    await Promise.all(opened.map((a) => a.dispose()));
  }
}

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;
type Field = { dataTypeID: number };
type RawResult = { columnTypes: number[] };
type Queryable = {
  performIO: (query: unknown) => Promise<{ fields: Field[] }>;
  queryRaw: (query: unknown) => Promise<RawResult>;
  startTransaction?: (...args: unknown[]) => Promise<object>;
  executeScript?: (script: string) => Promise<void>;
  underlyingDriver?: () => { query: (sql: string) => Promise<unknown> };
  onError?: (error: unknown) => never;
};

/**
 * The pg driver adapter rejects PostgreSQL's internal `"char"` type (OID 18), which the
 * engine's catalogue queries read when describing a live database (pg_constraint.contype,
 * pg_class.relkind). Its values arrive as text; this reports those columns to the engine as
 * the one-character type it expects.
 */
function readCharAsText(factory: PrismaPg, opened: Array<{ dispose: () => Promise<void> }>): PrismaPg {
  const wrap = <T extends object>(queryable: T): T => {
    const q = queryable as unknown as Queryable;
    const performIO = q.performIO.bind(q);
    const queryRaw = q.queryRaw.bind(q);
    let charColumns: number[] = [];
    q.performIO = async (query) => {
      const result = await performIO(query);
      charColumns = [];
      result.fields.forEach((field, i) => {
        if (field.dataTypeID !== PG_CHAR_OID) return;
        field.dataTypeID = PG_TEXT_OID;
        charColumns.push(i);
      });
      return result;
    };
    q.queryRaw = async (query) => {
      const result = await queryRaw(query);
      for (const i of charColumns) result.columnTypes[i] = ColumnTypeEnum.Character;
      return result;
    };
    const start = q.startTransaction?.bind(q);
    if (start) q.startTransaction = async (...args) => wrap(await start(...args));
    // The adapter splits a migration on every `;` (inside function bodies and comments too);
    // PostgreSQL takes the whole script as one multi-statement query, as the binary engine
    // sends it, so PL/pgSQL functions and triggers can live in migrations.
    const driver = q.underlyingDriver?.();
    if (q.executeScript && driver)
      q.executeScript = async (script) => {
        try {
          await driver.query(script);
        } catch (error) {
          q.onError?.(error);
          throw error;
        }
      };
    return queryable;
  };
  const connect = factory.connect.bind(factory);
  const connectToShadowDb = factory.connectToShadowDb.bind(factory);
  const track = <T extends { dispose: () => Promise<void> }>(adapter: T): T => {
    opened.push(adapter);
    return wrap(adapter);
  };
  factory.connect = async () => track(await connect());
  factory.connectToShadowDb = async () => track(await connectToShadowDb());
  return factory;
}
