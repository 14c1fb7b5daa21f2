// pnpm audit:verify — walks the whole audit hash chain (docs/decisions/015-audit-hash-chain.md)
// of the configured database (DATABASE_URL, or the embedded one under DATA_DIR), recomputing
// every hash here in Node, and names the first event that was changed or removed. Records the
// outcome like the hourly job does. Exit code 0: the chain verifies; 1: it does not.
import { poolOf } from '@quire/db';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/database.js';
import { auditKeyOf, keyAuditPool } from '../src/lib/audit-chain.js';
import { loadSecretKey } from '../src/lib/secrets.js';
import { runVerification } from '../src/modules/audit/audit.service.js';

const config = loadConfig();
const { db, close } = await openDatabase(config);
// The audit key comes from APP_SECRET (or DATA_DIR/secret.key), as the server's does: it checks
// the keyed events, and the event recording this check is sealed with it.
const secretKey = loadSecretKey(config.APP_SECRET, config.dataDir);
keyAuditPool(poolOf(db), auditKeyOf(secretKey));
let code = 0;
try {
  const started = Date.now();
  let shown = 0;
  const report = await runVerification({ db, now: () => new Date(), secretKey }, (checked) => {
    if (checked - shown >= 250_000) {
      shown = checked;
      process.stdout.write(`  … ${checked.toLocaleString('en')} events\n`);
    }
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (report.ok) {
    console.info(
      `The audit chain verifies: ${report.checked.toLocaleString('en')} events in ${seconds} s. Head #${report.head?.seq ?? 0} ${report.head?.hash ?? ''}`,
    );
  } else {
    code = 1;
    console.error(
      `The audit chain does NOT verify (${report.checked.toLocaleString('en')} events checked before it broke).`,
    );
    console.error(report.problem?.message);
  }
} finally {
  await close();
}
process.exit(code);
