import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's prisma/ folder (the one schema and its migrations), found upwards from here. */
function findPrismaDir(): string {
  if (process.env.QUIRE_PRISMA_DIR) return path.resolve(process.env.QUIRE_PRISMA_DIR);
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'prisma', 'schema.prisma');
    if (existsSync(candidate)) return path.dirname(candidate);
    const parent = path.dirname(dir);
    if (parent === dir)
      throw new Error(`Cannot find prisma/schema.prisma above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

export const prismaDir = findPrismaDir();
export const schemaPath = path.join(prismaDir, 'schema.prisma');
export const migrationsDir = path.join(prismaDir, 'migrations');
/** The repository (or image) root: the folder that holds prisma/. */
export const rootDir = path.dirname(prismaDir);
