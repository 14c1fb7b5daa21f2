#!/usr/bin/env node
// Regenerates packages/contract/src/common-passwords.ts from the common-password list of
// @zxcvbn-ts/language-common. Usage:
//   npm pack @zxcvbn-ts/language-common@4.1.3 && tar xzf zxcvbn-ts-language-common-4.1.3.tgz
//   node scripts/common-passwords.mjs package/src/passwords.json
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const MIN_LENGTH = 10; // PASSWORD_MIN_LENGTH in packages/contract/src/password-policy.ts
const source = process.argv[2];
if (!source) {
  console.error('Usage: node scripts/common-passwords.mjs path/to/passwords.json');
  process.exit(2);
}
const words = [
  ...new Set(JSON.parse(readFileSync(source, 'utf8')).map((p) => String(p).toLowerCase())),
].filter((p) => p.length >= MIN_LENGTH && !/[\n`\\$]/.test(p));
const out = `// The passwords of at least PASSWORD_MIN_LENGTH characters from the common-password list of
// @zxcvbn-ts/language-common 4.1.3 (MIT licence), most common first, lower-cased. Shorter
// ones need no list: the length rule refuses them. Regenerate with
// \`node scripts/common-passwords.mjs\` after \`npm pack @zxcvbn-ts/language-common\`.
// Over 400 lines on purpose: it is a data list, one password a line, made by that script.
export const COMMON_PASSWORDS: readonly string[] = \`
${words.join('\n')}
\`
  .trim()
  .split('\\n');
`;
writeFileSync(path.resolve(import.meta.dirname, '../packages/contract/src/common-passwords.ts'), out);
console.info(`${words.length} passwords written`);
