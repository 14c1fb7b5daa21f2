// pnpm --filter @quire/contract calls — writes src/calls.ts from the contract (src/calls-table.ts).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { callsSource } from '../src/calls-table.js';

const target = path.resolve(import.meta.dirname, '../src/calls.ts');
writeFileSync(target, callsSource());
console.info(`wrote ${path.relative(process.cwd(), target)}`);
