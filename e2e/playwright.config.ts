import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// Journeys in Debian's Chromium against the production build, served by the real server
// on a fresh embedded PostgreSQL. `pnpm build` must have run (pnpm test does it).
const port = Number(process.env.E2E_PORT ?? 3555);
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'quire-e2e-'));
export const E2E_ADMIN = { username: 'admin', password: 'Quiet-Lantern-River-8' };

export default defineConfig({
  testDir: './tests',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [['list'], ['json']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-gpu',
      ],
    },
  },
  webServer: {
    command: 'node --import tsx src/server.ts',
    cwd: path.resolve(import.meta.dirname, '../apps/api'),
    url: `http://127.0.0.1:${port}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      VENDOR_PASSWORD: 'Amber-Falcon-Orbit-31',
      // The journeys' SMTP listener is on this machine.
      SMTP_ALLOW_PRIVATE_HOSTS: 'true',
    },
  },
});
