import type { ChildProcess } from 'node:child_process';

/** Starts gathering the child's output; the answer reads all of it so far. */
export function collectOutput(child: ChildProcess): () => string;
