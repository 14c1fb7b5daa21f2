export { createDb, type Db, databaseUrlOf, poolOf } from './client.js';
export { type EmbeddedDatabase, freePort, StartupError, startEmbeddedPostgres } from './embedded.js';
export * from './generated/prisma/client.js';
export { createDatabase, diffMigration, migrate, withDatabase } from './migrate.js';
export { migrationsDir, rootDir, schemaPath } from './paths.js';
