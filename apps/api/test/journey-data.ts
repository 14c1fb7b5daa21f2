// Data for browser journeys that the API cannot make yet (categories, metadata fields and
// indexed files belong to the catalog and files areas, built on other branches). Run against a
// journey's server, with that server's DATA_DIR (its embedded PostgreSQL and blob store):
//
//   DATA_DIR=… node --import tsx test/journey-data.ts '{"do":"setup",…}'     (cwd apps/api)
//
// It prints one line of JSON. It uses the tests' factories, and indexes a file as the files
// area does: the file and its values, and its `indexed` event in the same transaction.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createDb } from '@quire/db';
import { createBlobStore } from '../src/lib/blob-store.js';
import { emitFileEvent } from '../src/lib/file-events.js';
import { createCategory, createFile, createMetadataField, setFileValues } from './factories.js';

type Command =
  | { do: 'setup'; category: string; field: string; viewers: string[] }
  | {
      do: 'index';
      category_id: number;
      owner: string;
      name: string;
      values: Array<{ field_id: number; value: number }>;
    }
  | { do: 'notifications'; username: string; file_id: number };

const dataDir = process.env.DATA_DIR;
if (!dataDir) throw new Error('Set DATA_DIR to the journey server’s data folder');
const pid = readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n');
const password = readFileSync(path.join(dataDir, 'postgres.password'), 'utf8').trim();
const db = createDb(
  `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${pid[3]?.trim()}/quire`,
);
const command = JSON.parse(process.argv[2] ?? '{}') as Command;

const userId = async (username: string) => (await db.user.findUniqueOrThrow({ where: { username } })).id;

try {
  if (command.do === 'setup') {
    const grants = [];
    for (const username of command.viewers) grants.push({ userId: await userId(username) });
    const category = await createCategory(db, { name: command.category, grants });
    const field = await createMetadataField(db, { name: command.field, type: 'number' });
    console.info(JSON.stringify({ category_id: category.id, field_id: field.id }));
  } else if (command.do === 'index') {
    const ownerId = await userId(command.owner);
    const file = await createFile(db, createBlobStore(path.join(dataDir, 'blobs')), {
      ownerId,
      categoryId: command.category_id,
      name: command.name,
    });
    await setFileValues(
      db,
      file.id,
      command.values.map((v) => ({ fieldId: v.field_id, value: v.value })),
    );
    await db.$transaction((tx) =>
      emitFileEvent(tx, {
        type: 'indexed',
        file_id: file.id,
        category_id: command.category_id,
        field_ids: command.values.map((v) => v.field_id),
        actor_id: ownerId,
      }),
    );
    console.info(JSON.stringify({ file_id: file.id }));
  } else if (command.do === 'notifications') {
    const rows = await db.notification.findMany({
      where: { userId: await userId(command.username), fileId: command.file_id },
      orderBy: { id: 'asc' },
      select: { kind: true, title: true },
    });
    console.info(JSON.stringify(rows));
  }
} finally {
  await db.$disconnect();
}
