import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// The machine is shared: give findBy*/waitFor room before calling a wait a failure.
configure({ asyncUtilTimeout: 3_000 });

afterEach(() => {
  cleanup();
  window.localStorage.clear();
});
