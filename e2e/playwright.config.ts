import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { freePort } from './free-port.ts';

// Journeys in Debian's Chromium against the production build, served by the real server
// on a fresh embedded PostgreSQL. `pnpm build` must have run (pnpm test does it).

// The runner loads this file, then each worker does again: the runner picks the port and the
// data folder once, and the workers inherit them through the environment.
if (!process.env.QUIRE_E2E_DATA_DIR) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'quire-e2e-'));
  process.env.QUIRE_E2E_DATA_DIR = dataDir;
  // E2E_PORT chooses the port; otherwise a free one, so that two runs never collide.
  process.env.E2E_PORT ??= String(await freePort());
  // The folder (the run's PostgreSQL cluster, blobs, secrets) goes once the runner exits,
  // after it has stopped the server (gracefully, below), so nothing is left in /tmp.
  process.on('exit', () => rmSync(dataDir, { recursive: true, force: true }));
}
const port = Number(process.env.E2E_PORT);
const dataDir = process.env.QUIRE_E2E_DATA_DIR;
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
    // SIGTERM, so that the server stops its PostgreSQL before the data folder is removed.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
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
      // And so is the directory journey's slapd.
      LDAP_ALLOW_PRIVATE_HOSTS: 'true',
      // Every journey signs in from 127.0.0.1, several times a minute: the default of 10
      // sign-in calls a minute per address refused the later ones with 429 when the
      // journeys ran fast. The limit itself is tested by the API tests.
      LOGIN_RATE_LIMIT: '1000',
    },
  },
});
