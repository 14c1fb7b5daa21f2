import { statfs } from 'node:fs/promises';
import type { Deps } from './deps.js';
import { databaseUnavailable, isDatabaseDown } from './errors.js';

// GET /api/health: what a monitor needs to see before people do. The database answers or
// not; the free space of the blob store and of the data folder (the embedded database, the
// secret key), so a disk filling up is seen before uploads get 507.

export interface DiskSpace {
  free_bytes: number;
  total_bytes: number;
}

export interface HealthReport {
  status: 'ok' | 'unavailable';
  database: 'up' | 'down';
  /** Why the status is not ok. */
  message?: string;
  storage: { blobs: DiskSpace | null; data_dir: DiskSpace | null };
}

/** Free space is read at most once a second: the health check stays one SELECT under load. */
const SPACE_TTL_MS = 1000;
const spaceCache = new Map<string, { at: number; space: Promise<DiskSpace | null> }>();

/** Free and total bytes of the filesystem holding `dir` (for the server's user), or null. */
export function diskSpace(dir: string): Promise<DiskSpace | null> {
  const cached = spaceCache.get(dir);
  if (cached && Date.now() - cached.at < SPACE_TTL_MS) return cached.space;
  const space = statfs(dir).then(
    (s) => ({ free_bytes: s.bavail * s.bsize, total_bytes: s.blocks * s.bsize }),
    () => null,
  );
  spaceCache.set(dir, { at: Date.now(), space });
  return space;
}

/** The report; `status: 'unavailable'` (answered 503) while the database is away. */
export async function healthReport(deps: Pick<Deps, 'db' | 'config'>): Promise<HealthReport> {
  const [blobs, dataDir, database] = await Promise.all([
    deps.config.STORAGE === 'folder' ? diskSpace(deps.config.storageDir) : null,
    diskSpace(deps.config.dataDir),
    deps.db.$queryRaw`SELECT 1`.then(
      () => 'up' as const,
      (err: unknown) => {
        if (isDatabaseDown(err)) return 'down' as const;
        throw err;
      },
    ),
  ]);
  const storage = { blobs, data_dir: dataDir };
  if (database === 'down')
    return { status: 'unavailable', database, message: databaseUnavailable().message, storage };
  return { status: 'ok', database, storage };
}
