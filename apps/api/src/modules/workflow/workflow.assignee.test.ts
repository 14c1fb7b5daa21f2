import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from '../../../test/access.js';
import type { TestContext } from '../../../test/app.js';
import { createFile } from '../../../test/factories.js';
import { type SeededUser, seededApp } from '../../../test/seed.js';
import { designWorkflow } from '../../../test/workflows.js';

// Who sees a file in a workflow (issue 23): an assignee of the step a file waits in views it
// (page, history, comments) and acts on that step, whatever their grants; once the file has
// left the step, or for anyone else without a grant, the file and its workflow are a 404 alike.

let t: TestContext;
let admin: string;
let people: Record<'owner' | 'alice' | 'bob' | 'outsider', SeededUser>;
let category: { id: number };

const person = (firstName: string) => ({ firstName, lastName: 'Test' });

beforeAll(async () => {
  let fileControl: SeededUser;
  ({
    t,
    users: { fileControl, ...people },
    categories: { category },
  } = await seededApp({
    users: {
      fileControl: { accessType: 'File Control Admin' },
      owner: person('owner'),
      alice: person('alice'),
      bob: person('bob'),
      outsider: person('outsider'),
    },
    // Only the owner has a grant: Alice and Bob reach the file through their tasks alone.
    categories: { category: { grants: { owner: ['edit'] } } },
  }));
  admin = fileControl.token;
});
afterAll(() => t.close());

const as = (who: keyof typeof people, opts: InjectOptions) => callAs(t, people[who].token, opts);
const status = async (who: keyof typeof people, url: string) =>
  (await as(who, { method: 'GET', url })).statusCode;

describe('workflow assignees and the files they work on', () => {
  it('the step a file waits in lets its assignees view it and act; moved on, it is hidden again', async () => {
    const w = await designWorkflow(t, admin, {
      steps: [
        { name: 'Check', users: [people.alice.id] },
        { name: 'Sign', users: [people.bob.id] },
      ],
    });
    const file = await createFile(t.db, t.app.deps.blobs, {
      ownerId: people.owner.id,
      categoryId: category.id,
    });
    const started = await as('owner', {
      method: 'POST',
      url: '/api/initiate-workflow',
      payload: { workflow_id: w.id, file_ids: [file.id] },
    });
    expect(started.statusCode, started.body).toBe(200);

    // The file waits in Alice's step: its page and its workflow are hers to see.
    expect(await status('alice', `/api/file-view/${file.id}`)).toBe(200);
    expect(await status('alice', `/api/folder-workflow-stage/${file.id}`)).toBe(200);
    // Bob's step is not reached yet; the outsider has none: both get the 404 of a hidden file.
    for (const who of ['bob', 'outsider'] as const) {
      expect(await status(who, `/api/file-view/${file.id}`)).toBe(404);
      expect(await status(who, `/api/folder-workflow-stage/${file.id}`)).toBe(404);
    }
    // Viewing is all it gives: no download.
    expect(await status('alice', `/api/download-files/${file.id}`)).toBe(403);

    const approved = await as('alice', {
      method: 'POST',
      url: '/api/manual-triger',
      payload: { file_id: file.id, workflow_step_id: w.steps[0], action: 'approve' },
    });
    expect(approved.statusCode, approved.body).toBe(200);

    // The file moved on to Sign: hidden from Alice (file and workflow alike), Bob's to see.
    expect(await status('alice', `/api/file-view/${file.id}`)).toBe(404);
    expect(await status('alice', `/api/folder-workflow-stage/${file.id}`)).toBe(404);
    expect(await status('bob', `/api/file-view/${file.id}`)).toBe(200);
  });
});
