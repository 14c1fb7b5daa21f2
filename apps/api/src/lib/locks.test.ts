import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADVISORY_LOCKS } from './locks.js';

const root = new URL('../../', import.meta.url).pathname;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

describe('advisory locks', () => {
  it('gives every kind of work its own key', () => {
    const keys = Object.values(ADVISORY_LOCKS);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('is the key the SQL audit seal takes', () => {
    const sql = readFileSync(join(root, '../../prisma/migrations/0011_search/migration.sql'), 'utf8');
    expect(sql).toContain(`pg_advisory_xact_lock(${ADVISORY_LOCKS.auditChain})`);
  });

  it('is the key the SQL raise of the category rights epoch takes', () => {
    const sql = readFileSync(
      join(root, '../../prisma/migrations/0021_category_rights_epoch_at_commit/migration.sql'),
      'utf8',
    );
    expect(sql).toMatch(
      new RegExp(`pg_advisory_xact_lock\\(${ADVISORY_LOCKS.auditChain}\\);\\s+UPDATE category_rights_epoch`),
    );
  });

  it('is the key the one SQL raise of both epochs takes, before the epoch', () => {
    const sql = readFileSync(
      join(root, '../../prisma/migrations/0022_file_sets_epoch/migration.sql'),
      'utf8',
    );
    expect(sql).toMatch(
      new RegExp(
        `pg_advisory_xact_lock\\(${ADVISORY_LOCKS.auditChain}\\);\\s+EXECUTE format\\('UPDATE %s SET epoch`,
      ),
    );
    expect(sql).toContain("quire_epoch_raise('category_rights_epoch', 'quire.rights_changed')");
    expect(sql).toContain("quire_epoch_raise('file_sets_epoch', 'quire.file_sets_changed')");
  });

  it('is the key the SQL category rights cache tries', () => {
    const sql = readFileSync(
      join(root, '../../prisma/migrations/0020_category_rights_cache/migration.sql'),
      'utf8',
    );
    expect(sql).toContain(`pg_try_advisory_xact_lock(${ADVISORY_LOCKS.categoryRightsCache}, p_user)`);
  });

  it('is taken only through lockFor: no module spells a key of its own', () => {
    const offenders = sources(join(root, 'src')).filter(
      (path) =>
        !path.endsWith('lib/locks.ts') && /pg_advisory(_xact)?_lock\(/.test(readFileSync(path, 'utf8')),
    );
    expect(offenders).toEqual([]);
  });
});
