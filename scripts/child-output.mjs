// What a child process writes, stdout and stderr together in the order they come: for the
// scripts and tests that start a process and show its output when it fails.

/** Starts gathering the child's output; the answer reads all of it so far. */
export function collectOutput(child) {
  let output = '';
  const add = (d) => {
    output += d;
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  return () => output;
}
