import type { Db } from '@quire/db';

/** `n` General staff users for the users-page figures (bench/run.ts, bench/http.ts). */
export async function addBenchUsers(db: Db, n = 5000) {
  const company = await db.company.findFirstOrThrow();
  await db.user.createMany({
    data: Array.from({ length: n }, (_, i) => ({
      companyId: company.id,
      username: `bench${i}`,
      email: `bench${i}@example.test`,
      firstName: `First${i}`,
      lastName: `Last${i % 97}`,
      loginRole: 'user' as const,
      accessType: 'GENERAL_STAFF' as const,
      passwordHash: 'x',
    })),
  });
  await db.$executeRawUnsafe('ANALYZE');
}
