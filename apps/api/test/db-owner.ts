import pg from 'pg';

/**
 * Runs `fn` on a connection of its own to `databaseUrl`, as the database's owner: what someone
 * with database access (and no audit key) could do behind the app's back.
 */
export async function asDatabaseOwner<T>(databaseUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
