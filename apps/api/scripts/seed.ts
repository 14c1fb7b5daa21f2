// pnpm db:seed — demo data for a new installation: one user of each access type, two groups
// and (when there are no categories yet) a small catalog, made with the same factories as the
// tests. Safe to run twice (existing demo users and categories are kept). The demo users share
// one generated password, printed once.
//
// pnpm db:seed --files 100000 — adds the benchmark data set (scripts/seed-bulk.ts): 100,000
// files in 500 categories, 1,000,000 metadata values, 2,000,000 audit events; each run adds
// another set. The demo users Grace (General staff) and Ada (Auditor) get view rights on a
// few of its categories.
import { poolOf } from '@quire/db';
import { bootstrap } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/database.js';
import { auditKeyOf, keyAuditPool } from '../src/lib/audit-chain.js';
import { openBlobStore } from '../src/lib/open-blob-store.js';
import { generatePassword } from '../src/lib/passwords.js';
import { loadSecretKey } from '../src/lib/secrets.js';
import { textPdf } from '../test/documents.js';
import {
  attachFields,
  createCategory,
  createMetadataField,
  createUser,
  createValueList,
} from '../test/factories.js';
import { seedBulk } from './seed-bulk.js';

const config = loadConfig();
const filesArg = process.argv.indexOf('--files');
const bulkFiles = filesArg === -1 ? 0 : Number(process.argv[filesArg + 1]);
if (filesArg !== -1 && !(Number.isInteger(bulkFiles) && bulkFiles > 0 && bulkFiles <= 10_000_000)) {
  console.error('Usage: pnpm db:seed [--files N]   (N from 1 to 10,000,000)');
  process.exit(2);
}
const { db, url, close } = await openDatabase(config);
// The events the seed writes are sealed with the audit key, as the server's are (decision 015).
const auditKey = auditKeyOf(loadSecretKey(config.APP_SECRET, config.dataDir));
keyAuditPool(poolOf(db), auditKey);
try {
  for (const account of await bootstrap(db, config)) {
    if (account.generated)
      console.info(`First start: created "${account.username}" with the password  ${account.password}`);
  }
  const password = generatePassword();
  const people = [
    { first: 'Grace', last: 'Staff', type: 'General staff' },
    { first: 'Felix', last: 'Files', type: 'File Control Admin' },
    { first: 'Uma', last: 'Users', type: 'User Administration Admin' },
    { first: 'Ada', last: 'Auditor', type: 'Auditor' },
    { first: 'Carl', last: 'Company', type: 'COMPANY ADMIN' },
  ] as const;
  const created: string[] = [];
  const ids: number[] = [];
  for (const p of people) {
    const username = `demo.${p.first.toLowerCase()}`;
    const existing = await db.user.findUnique({ where: { username } });
    const user =
      existing ??
      (await createUser(db, {
        username,
        firstName: p.first,
        lastName: p.last,
        accessType: p.type,
        password,
      }));
    if (!existing) created.push(`${username} (${p.type})`);
    ids.push(user.id);
  }
  for (const [name, members] of [
    ['Finance', ids.slice(0, 3)],
    ['Operations', ids.slice(2)],
  ] as const) {
    await db.group.upsert({
      where: { name },
      update: {},
      create: {
        name,
        description: `Demo group: ${name}`,
        members: { create: members.map((userId) => ({ userId })) },
      },
    });
  }
  // A demo catalog: a value list, fields, a small tree with rights for the Finance group.
  if ((await db.category.count()) === 0) {
    const finance = await db.group.findUniqueOrThrow({ where: { name: 'Finance' } });
    const statuses = await createValueList(db, {
      name: 'Invoice status',
      items: ['Open', 'Paid', 'Disputed'],
    });
    const status = await createMetadataField(db, {
      name: 'Invoice status',
      type: 'select',
      valueListId: statuses.id,
      required: true,
    });
    const amount = await createMetadataField(db, { name: 'Amount', type: 'number', minNumber: 0 });
    const reference = await createMetadataField(db, { name: 'Reference', type: 'text', maxLength: 40 });
    const accounts = await createCategory(db, { name: 'Accounts', position: 0 });
    const invoices = await createCategory(db, {
      name: 'Invoices',
      parentId: accounts.id,
      position: 0,
      grants: [{ groupId: finance.id, rights: ['upload', 'edit'] }],
    });
    await createCategory(db, { name: 'Receipts', parentId: accounts.id, position: 1 });
    await createCategory(db, { name: 'Contracts', position: 1 });
    await attachFields(db, accounts.id, [{ fieldId: reference.id }]);
    await attachFields(db, invoices.id, [{ fieldId: status.id, defaultValue: '1' }, { fieldId: amount.id }]);
    console.info('Created a demo catalog: Accounts (Invoices, Receipts) and Contracts, with three fields.');
  }
  if (bulkFiles) {
    console.info(`Seeding ${bulkFiles} files (and their categories, values and audit events)…`);
    const blobs = openBlobStore(config);
    const content = textPdf(['Seeded document: its name and metadata are what the benchmark searches.']);
    const stored = await blobs.put(content);
    await seedBulk(url, {
      files: bulkFiles,
      auditKey,
      blob: { id: stored.id, size: stored.size, mimeType: 'application/pdf' },
      log: (line) => console.info(line),
    });
    const grace = await db.user.findUnique({ where: { username: 'demo.grace' } });
    if (grace) {
      const some = await db.category.findMany({
        where: { parentId: null },
        orderBy: { id: 'desc' },
        take: 5,
      });
      for (const c of some)
        await db.categoryPermission.upsert({
          where: { categoryId_userId: { categoryId: c.id, userId: grace.id } },
          update: {},
          create: { categoryId: c.id, userId: grace.id },
        });
    }
  }
  if (created.length) {
    console.info(
      `Created ${created.length} demo users, each with the password  ${password}\n  ${created.join('\n  ')}`,
    );
  } else {
    console.info('The demo users exist already; nothing created.');
  }
} finally {
  await close();
}
