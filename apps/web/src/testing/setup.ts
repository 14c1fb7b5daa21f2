import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll } from 'vitest';

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});

// The lazily loaded main area (every page) takes a while to compile the first time: do it
// before a test's clock starts, so that the first findBy* of a file does not time out.
beforeAll(async () => {
  await import('../app/main-area');
}, 60_000);
