// The first thing `pnpm start` and `pnpm test` do: stop at once, with one sentence saying
// what to do, on a Node.js older than the one Quire needs (package.json "engines").
// Written to parse on any Node.js that can read ES modules, old ones included.
const NEEDED = [22, 12];
const found = process.versions.node.split('.').map(Number);
const tooOld = found[0] < NEEDED[0] || (found[0] === NEEDED[0] && found[1] < NEEDED[1]);
if (tooOld) {
  console.error(
    `Quire needs Node.js ${NEEDED.join('.')} or later and this is Node.js ${process.versions.node}: ` +
      'run `. scripts/use-node.sh` in this shell (it fetches Node.js 24 from the npm registry once), then try again.',
  );
  process.exit(1);
}
