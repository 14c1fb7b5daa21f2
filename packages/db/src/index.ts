export { createDb, type Db, databaseUrlOf, hasPool, poolOf } from './client.js';
export { type EmbeddedDatabase, freePort, startEmbeddedPostgres } from './embedded.js';
export { StartupError } from './embedded-errors.js';
export * from './generated/prisma/client.js';
export { createDatabase, diffMigration, migrate, withDatabase } from './migrate.js';
export { migrationsDir, rootDir, schemaPath } from './paths.js';
