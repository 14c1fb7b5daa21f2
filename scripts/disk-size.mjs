// Bytes on disk, as `du` counts them: the blocks actually used, each hard-linked file once.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export function sizeOf(target, seen = new Set()) {
  const stat = statSync(target);
  if (seen.has(stat.ino)) return 0;
  seen.add(stat.ino);
  if (!stat.isDirectory()) return stat.blocks * 512;
  let total = stat.blocks * 512;
  for (const entry of readdirSync(target, { withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    total += sizeOf(path.join(target, entry.name), seen);
  }
  return total;
}
