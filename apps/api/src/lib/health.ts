import { createHash, timingSafeEqual } from 'node:crypto';
import { statfs } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from './deps.js';
import { databaseUnavailable, isDatabaseDown } from './errors.js';
import { bearerToken } from './session.js';

// GET /api/health: what a monitor needs to see before people do. The database answers or
// not; the free space of the blob store and of the data folder (the embedded database, the
// secret key), so a disk filling up is seen before uploads get 507. Anyone gets the status
// and which part is failing; the sizes (which tell about the installation) only a signed-in
// admin or a monitor sending `Authorization: Bearer <HEALTH_TOKEN>`.

interface DiskSpace {
  free_bytes: number;
  total_bytes: number;
}

/** A part that can fail: the database, the blob store (its disk, or its S3 service), the data folder's disk. */
type HealthPart = 'database' | 'blobs' | 'data_dir';

interface HealthReport {
  /**
   * ok; degraded: a disk is nearly full or unreadable, or the S3 store does not answer (calls
   * still answered); unavailable: the database is away (503).
   */
  status: 'ok' | 'degraded' | 'unavailable';
  database: 'up' | 'down';
  /** The failing parts (empty when ok). */
  failing: HealthPart[];
  /** Why the status is not ok. */
  message?: string;
  /** Only for a signed-in admin or the HEALTH_TOKEN: each disk's free and total bytes. */
  storage?: { blobs: DiskSpace | null; data_dir: DiskSpace | null };
}

/** A disk is failing below this much free space: 2% of it, at most 5 GiB. */
const LOW_SPACE_SHARE = 0.02;
const LOW_SPACE_MAX_BYTES = 5 * 1024 ** 3;
const isLow = (d: DiskSpace) => d.free_bytes < Math.min(LOW_SPACE_MAX_BYTES, d.total_bytes * LOW_SPACE_SHARE);

/** Free space is read at most once a second: the health check stays one SELECT under load. */
const SPACE_TTL_MS = 1000;
const spaceCache = new Map<string, { at: number; space: Promise<DiskSpace | null> }>();

/** Free and total bytes of the filesystem holding `dir` (for the server's user), or null. */
function diskSpace(dir: string): Promise<DiskSpace | null> {
  const cached = spaceCache.get(dir);
  if (cached && Date.now() - cached.at < SPACE_TTL_MS) return cached.space;
  const space = statfs(dir).then(
    (s) => ({ free_bytes: s.bavail * s.bsize, total_bytes: s.blocks * s.bsize }),
    () => null,
  );
  spaceCache.set(dir, { at: Date.now(), space });
  return space;
}

/** The whole report (sizes included); `status: 'unavailable'` (answered 503) while the database is away. */
async function healthReport(
  deps: Pick<Deps, 'db' | 'config' | 'blobs'>,
): Promise<HealthReport & { storage: NonNullable<HealthReport['storage']> }> {
  const folder = deps.config.STORAGE === 'folder';
  const [blobs, dataDir, database, storeAnswers] = await Promise.all([
    folder ? diskSpace(deps.config.storageDir) : null,
    diskSpace(deps.config.dataDir),
    deps.db.$queryRaw`SELECT 1`.then(
      () => 'up' as const,
      (err: unknown) => {
        if (isDatabaseDown(err)) return 'down' as const;
        throw err;
      },
    ),
    deps.blobs.reachable?.() ?? true,
  ]);
  const storage = { blobs, data_dir: dataDir };
  const failing: HealthPart[] = [];
  if (database === 'down') failing.push('database');
  if ((folder && (!blobs || isLow(blobs))) || !storeAnswers) failing.push('blobs');
  if (!dataDir || isLow(dataDir)) failing.push('data_dir');
  if (database === 'down')
    return { status: 'unavailable', database, failing, message: databaseUnavailable().message, storage };
  if (failing.length)
    return {
      status: 'degraded',
      database,
      failing,
      message: folder
        ? `Nearly full or unreadable: ${failing.map((p) => (p === 'blobs' ? 'the file store' : 'the data folder')).join(' and ')}`
        : [
            ...(failing.includes('blobs') ? ['The file store (S3) is not reachable'] : []),
            ...(failing.includes('data_dir') ? ['the data folder is nearly full or unreadable'] : []),
          ].join('; '),
      storage,
    };
  return { status: 'ok', database, failing, storage };
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether the caller may see the sizes: a signed-in admin (second factor given) or the HEALTH_TOKEN. */
function seesSizes(deps: Pick<Deps, 'config'>, req: FastifyRequest): boolean {
  const auth = req.auth;
  if (auth && !auth.twoFactorPending && auth.role === 'admin') return true;
  const wanted = deps.config.HEALTH_TOKEN;
  const given = bearerToken(req.headers.authorization);
  return !!wanted && !!given && timingSafeEqual(digest(wanted), digest(given));
}

/** The GET /api/health handler: 200, or 503 while the database is away; sizes only for those who may see them. */
export function healthRoute(deps: Pick<Deps, 'db' | 'config' | 'blobs'>) {
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const { storage, ...report } = await healthReport(deps);
    return reply
      .status(report.database === 'up' ? 200 : 503)
      .send(seesSizes(deps, req) ? { ...report, storage } : report);
  };
}
