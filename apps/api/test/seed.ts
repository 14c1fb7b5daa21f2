import type { AccessType, LoginRole } from '@quire/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { emitFileEvent } from '../src/lib/file-events.js';
import { callAs } from './access.js';
import { createTestApp, type TestContext } from './app.js';
import {
  addCategoryFields,
  createCategory,
  createField,
  createFile,
  createGroup,
  createUser,
  type Grant,
  loginAs,
  type UserOverrides,
} from './factories.js';

// A test's world, declared: people by name, groups of them, categories with grants by name,
// files by name in those categories — created in one call on the test's own database, and
// handed back by the same names (ids, and each person's bearer token). Papra's
// createInMemoryDatabase({ users, documents }) is the model; ours stays on real PostgreSQL.
//
//   const world = await seed(t, {
//     users: { alice: {}, auditor: { accessType: 'Auditor' } },
//     fields: { amount: { name: 'Amount', type: 'number' } },
//     categories: { invoices: { grants: { alice: ['upload', 'edit'] }, fields: ['amount'] } },
//     files: { march: { owner: 'alice', category: 'invoices' } },
//   });
//   world.users.alice.token; world.files.march.id;
//
// Declaration order is creation order: a category names a parent declared before it.

type Rights = NonNullable<Grant['rights']>;

export interface SeedUser extends UserOverrides {
  /** Sign in with this role (default: their login role); false: no token. */
  signIn?: LoginRole | false;
}

type FieldSpec = NonNullable<Parameters<typeof createField>[1]>;
type Members<U extends string> = Array<NoInfer<U> | { id: number }>;
type GroupSpec<U extends string> = Members<U> | { name: string; description?: string; members: Members<U> };

export interface SeedSpec<
  U extends string,
  G extends string,
  C extends string,
  F extends string,
  M extends string = never,
> {
  /** People by name: made and signed in, or one seeded before (by another seed()), taken as it is. */
  users?: Record<U, SeedUser | SeededUser>;
  /**
   * Groups by name, each with its members (people declared above, or ones seeded before), or
   * { name, description?, members } for a group whose stored name matters.
   */
  groups?: Record<G, GroupSpec<U>>;
  /** Metadata fields by name (a select field gets its own value list of `items`). */
  fields?: Record<M, FieldSpec>;
  categories?: Record<
    C,
    {
      name?: string;
      /** A category declared above, or one seeded before. */
      parent?: NoInfer<C> | { id: number };
      inheritPermissions?: boolean;
      /** Grants by person or group name: the rights besides view ([] is view only). */
      grants?: Partial<Record<NoInfer<U> | NoInfer<G>, Rights>>;
      /** Fields on its indexing form, in order: declared above, or seeded before. */
      fields?: Array<NoInfer<M> | { id: number }>;
    }
  >;
  files?: Record<
    F,
    {
      /** A person declared above, or one seeded before (e.g. a file's admin). */
      owner: NoInfer<U> | { id: number };
      /** A category declared above, or one seeded before; unindexed when absent or null. */
      category?: NoInfer<C> | { id: number } | null;
      /** false: in its category but not yet indexed (default: indexed when it has one). */
      indexed?: boolean;
      name?: string;
      content?: Buffer;
      mimeType?: string;
    }
  >;
}

export interface SeededUser {
  id: number;
  username: string;
  email: string;
  /** The role stored for them (user for General staff, else admin, unless declared). */
  loginRole: LoginRole;
  /** The bearer token of a signed-in session ('' with signIn: false). */
  token: string;
}

/** The names a spec declares of one kind (its `users`, `groups`, …). */
type NamesIn<T> = keyof NonNullable<T>;

/** What seed(spec) made, by the names `S` declares. */
export interface World<S extends SeedSpec<string, string, string, string, string>> {
  users: Record<NamesIn<S['users']>, SeededUser>;
  groups: Record<NamesIn<S['groups']>, { id: number; name: string; createdAt: Date }>;
  fields: Record<NamesIn<S['fields']>, { id: number; name: string }>;
  categories: Record<NamesIn<S['categories']>, { id: number; name: string }>;
  files: Record<NamesIn<S['files']>, { id: number; name: string; currentVersionId: number | null }>;
}

/** Where a world is seeded: a test's app and its database (a TestContext, or an app a test built itself). */
export type Seedable = Pick<TestContext, 'app' | 'db'>;

const isSeeded = (person: SeedUser | SeededUser): person is SeededUser => 'id' in person;

const entries = <K extends string, V>(record: Partial<Record<K, V>> | undefined) =>
  Object.entries(record ?? {}) as Array<[K, V]>;

export async function seed<
  const U extends string = never,
  const G extends string = never,
  const C extends string = never,
  const F extends string = never,
  const M extends string = never,
>(t: Seedable, spec: SeedSpec<U, G, C, F, M>): Promise<World<SeedSpec<U, G, C, F, M>>> {
  const world = { users: {}, groups: {}, fields: {}, categories: {}, files: {} } as World<
    SeedSpec<U, G, C, F, M>
  >;
  for (const [name, person] of entries(spec.users)) {
    if (isSeeded(person)) {
      world.users[name] = person;
      continue;
    }
    const { signIn, ...overrides } = person;
    const user = await createUser(t.db, overrides);
    const role = signIn ?? user.loginRole;
    world.users[name] = {
      id: user.id,
      username: user.username,
      email: user.email,
      loginRole: user.loginRole,
      token: role === false ? '' : await loginAs(t.app, user, role, overrides.password),
    };
  }
  for (const [name, g] of entries<G, GroupSpec<U>>(spec.groups)) {
    const members = Array.isArray(g) ? g : g.members;
    const group = await createGroup(
      t.db,
      members.map((m) => (typeof m === 'object' ? m.id : world.users[m].id)),
      Array.isArray(g) ? undefined : g.name,
      Array.isArray(g) ? undefined : g.description,
    );
    world.groups[name] = { id: group.id, name: group.name, createdAt: group.createdAt };
  }
  for (const [name, field] of entries(spec.fields)) {
    const made = await createField(t.db, field);
    world.fields[name] = { id: made.id, name: made.name };
  }
  for (const [name, c] of entries(spec.categories)) {
    if (typeof c.parent === 'string' && !(c.parent in world.categories))
      throw new Error(`seed: category "${name}" names parent "${c.parent}" before it is declared`);
    const grants: Grant[] = entries(c.grants).map(([who, rights]) =>
      who in world.users
        ? { userId: world.users[who as U].id, rights }
        : { groupId: world.groups[who as G].id, rights },
    );
    const category = await createCategory(t.db, {
      ...(c.name ? { name: c.name } : {}),
      ...(c.parent !== undefined
        ? { parentId: typeof c.parent === 'object' ? c.parent.id : world.categories[c.parent].id }
        : {}),
      ...(c.inheritPermissions !== undefined ? { inheritPermissions: c.inheritPermissions } : {}),
      grants,
    });
    if (c.fields?.length)
      await addCategoryFields(
        t.db,
        category.id,
        c.fields.map((f) => (typeof f === 'object' ? f.id : world.fields[f].id)),
      );
    world.categories[name] = { id: category.id, name: category.name };
  }
  for (const [name, f] of entries(spec.files)) {
    const file = await createFile(t.db, t.app.deps.blobs, {
      ownerId: typeof f.owner === 'object' ? f.owner.id : world.users[f.owner].id,
      categoryId: !f.category
        ? null
        : typeof f.category === 'object'
          ? f.category.id
          : world.categories[f.category].id,
      indexed: f.indexed ?? Boolean(f.category),
      ...(f.name ? { name: f.name } : {}),
      ...(f.content ? { content: f.content } : {}),
      ...(f.mimeType ? { mimeType: f.mimeType } : {}),
    });
    world.files[name] = { id: file.id, name: file.name, currentVersionId: file.currentVersionId };
  }
  return world;
}

/** One person, made and signed in as seed() makes people: `(await person(t, { accessType: 'Auditor' })).token`. */
export async function person(t: Seedable, o: SeedUser = {}): Promise<SeededUser> {
  return (await seed(t, { users: { person: o } })).users.person;
}

/** The ids of a world's people, groups, categories or files, by name: `idsOf(world.files).march`. */
export const idsOf = <K extends string>(named: Record<K, { id: number }>) =>
  Object.fromEntries(Object.entries<{ id: number }>(named).map(([name, { id }]) => [name, id])) as Record<
    K,
    number
  >;

/**
 * A test file's app on its own database, with its world seeded: the usual beforeAll.
 *
 *   beforeAll(async () => {
 *     ({ t, users: { admin } } = await seededApp({ users: { admin: { accessType: 'COMPANY ADMIN' } } }));
 *   });
 *   afterAll(() => t.close());
 */
export async function seededApp<
  const U extends string = never,
  const G extends string = never,
  const C extends string = never,
  const F extends string = never,
  const M extends string = never,
>(
  spec: SeedSpec<U, G, C, F, M>,
  ...app: Parameters<typeof createTestApp>
): Promise<World<SeedSpec<U, G, C, F, M>> & { t: TestContext }> {
  const t = await createTestApp(...app);
  return { t, ...(await seed(t, spec)) };
}

/** A call made as one person: `app.inject` with their bearer token. */
export type CallAs = (opts: InjectOptions) => ReturnType<typeof callAs>;

/**
 * A test file's app with one signed-in admin of `accessType` and a caller as them: the usual
 * beforeAll of an area's Settings or File Control tests.
 *
 *   beforeAll(async () => {
 *     ({ t, admin, asAdmin } = await adminApp('File Control Admin'));
 *   });
 */
export async function adminApp(
  accessType: AccessType,
  ...app: Parameters<typeof createTestApp>
): Promise<{ t: TestContext; admin: SeededUser; asAdmin: CallAs }> {
  const { t, users } = await seededApp({ users: { admin: { accessType } } }, ...app);
  return { t, admin: users.admin, asAdmin: (opts) => callAs(t, users.admin.token, opts) };
}

/**
 * adminApp for a whole test file: made before its tests, closed after them, and handed to
 * `take` (which keeps the parts the file uses).
 *
 *   let t: TestContext;
 *   let asAdmin: CallAs;
 *   adminAppPerFile('File Control Admin', (app) => ({ t, asAdmin } = app));
 */
export function adminAppPerFile(
  accessType: AccessType,
  take: (app: Awaited<ReturnType<typeof adminApp>>) => void,
  ...app: Parameters<typeof createTestApp>
): void {
  let t: TestContext | undefined;
  beforeAll(async () => {
    const made = await adminApp(accessType, ...app);
    t = made.t;
    take(made);
  });
  afterAll(() => t?.close());
}

/** A signed-in person (staff) who may upload into a category of their own. */
export async function uploader(t: TestContext) {
  const world = await seed(t, {
    users: { user: {} },
    categories: { category: { grants: { user: ['upload'] } } },
  });
  return { user: world.users.user, token: world.users.user.token, category: world.categories.category };
}

/**
 * A file as an upload leaves it: stored and indexed in `categoryId`, its `uploaded` event
 * emitted and the jobs that event queues (text extraction, previews) run.
 */
export async function uploadedFile(
  t: TestContext,
  o: { ownerId: number; categoryId: number; name: string; content: Buffer; mimeType: string },
) {
  const file = await createFile(t.db, t.app.deps.blobs, o);
  await announceUpload(t, file, o.ownerId);
  return file;
}

/** Emits a stored file's `uploaded` event by `actorId` and runs the jobs it queues. */
export async function announceUpload(
  t: TestContext,
  file: { id: number; currentVersionId: number | null },
  actorId: number,
) {
  await t.db.$transaction((tx) =>
    emitFileEvent(tx, {
      type: 'uploaded',
      file_id: file.id,
      version_id: file.currentVersionId as number,
      actor_id: actorId,
    }),
  );
  await t.app.jobs.runDue();
}
