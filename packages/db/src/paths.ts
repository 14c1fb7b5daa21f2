import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The repository's prisma/ folder: the one schema and its migrations. */
export const prismaDir = process.env.QUIRE_PRISMA_DIR ?? path.resolve(here, '../../../prisma');
export const schemaPath = path.join(prismaDir, 'schema.prisma');
export const migrationsDir = path.join(prismaDir, 'migrations');
