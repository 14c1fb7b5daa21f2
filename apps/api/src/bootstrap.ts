import { passwordProblems } from '@quire/contract';
import type { Db, AccessType as DbAccessType } from '@quire/db';
import { type Config, ConfigError } from './config.js';
import { audit } from './lib/audit.js';
import { lockFor } from './lib/locks.js';
import { generatePassword, hashPassword } from './lib/passwords.js';

const EXAMPLES = ['Quiet-Lantern-River-8', 'Amber-Falcon-Orbit-31', 'Copper-Meadow-Tide-54'];

/** A password that passes the policy for this account, to show beside a refused one. */
function examplePassword(context: { username: string; email: string }): string {
  return EXAMPLES.find((p) => passwordProblems(p, context).length === 0) ?? generatePassword();
}

interface CreatedAccount {
  username: string;
  password: string;
  generated: boolean;
}

/**
 * First start: with no users, creates the company, a Company Admin and the vendor admin.
 * Passwords come from the environment or are generated, and are returned to be shown once.
 */
export async function bootstrap(db: Db, config: Config): Promise<CreatedAccount[]> {
  if ((await db.user.count()) > 0) return [];
  const accounts = [
    {
      username: config.ADMIN_USERNAME,
      email: config.ADMIN_EMAIL,
      given: config.ADMIN_PASSWORD,
      accessType: 'COMPANY_ADMIN' as DbAccessType,
      firstName: 'Company',
      lastName: 'Admin',
    },
    {
      username: config.VENDOR_USERNAME,
      email: config.VENDOR_EMAIL,
      given: config.VENDOR_PASSWORD,
      accessType: 'VENDOR_ADMIN' as DbAccessType,
      firstName: 'Vendor',
      lastName: 'Admin',
    },
  ];
  // A given password must pass the policy every other password does; it is checked here,
  // on the first start, the only time it is used.
  const problems = accounts.flatMap((a, i) =>
    a.given === undefined
      ? []
      : passwordProblems(a.given, a).map((p) => `  ${i === 0 ? 'ADMIN' : 'VENDOR'}_PASSWORD: ${p}`),
  );
  if (problems.length) {
    const rule =
      'A password needs 10 to 256 characters, must not contain the username or the part of the e-mail address before the @, and must not be a common password.';
    const examples = accounts
      .filter((a) => a.given !== undefined && passwordProblems(a.given, a).length)
      .map((a) => `  ${a === accounts[0] ? 'ADMIN' : 'VENDOR'}_PASSWORD='${examplePassword(a)}' would pass.`);
    throw new ConfigError(
      `Invalid configuration:\n${problems.join('\n')}\n  ${rule}\n${examples.join('\n')}`,
    );
  }
  const prepared = await Promise.all(
    accounts.map(async (a) => {
      const password = a.given ?? generatePassword();
      return { ...a, password, hash: await hashPassword(password) };
    }),
  );
  const created = await db.$transaction(async (tx) => {
    // Re-check inside the transaction: two servers starting at once create one set.
    await lockFor(tx, 'bootstrap');
    if ((await tx.user.count()) > 0) return false;
    const company =
      (await tx.company.findFirst()) ?? (await tx.company.create({ data: { name: config.COMPANY_NAME } }));
    for (const a of prepared) {
      const user = await tx.user.create({
        data: {
          companyId: company.id,
          username: a.username.toLowerCase(),
          email: a.email.toLowerCase(),
          firstName: a.firstName,
          lastName: a.lastName,
          loginRole: 'admin',
          accessType: a.accessType,
          passwordHash: a.hash,
        },
      });
      await audit(
        tx,
        { userId: null },
        {
          type: 'user',
          action: 'user.created',
          message: `First start: created ${a.firstName} ${a.lastName} "${user.username}"`,
          targetType: 'user',
          targetId: user.id,
        },
      );
    }
    return true;
  });
  if (!created) return [];
  return prepared.map((a) => ({ username: a.username, password: a.password, generated: !a.given }));
}
