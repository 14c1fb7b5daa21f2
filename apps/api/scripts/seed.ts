// pnpm db:seed — demo data for a new installation: one user of each access type, two groups
// and (when there are no categories yet) a small catalog, made with the same factories as the
// tests. Safe to run twice (existing demo users and categories are kept). The demo users share
// one generated password, printed once.
import { bootstrap } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/database.js';
import { generatePassword } from '../src/lib/passwords.js';
import {
  attachFields,
  createCategory,
  createMetadataField,
  createUser,
  createValueList,
} from '../test/factories.js';

const config = loadConfig();
const { db, close } = await openDatabase(config);
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
