// pnpm bench:intake — files/s taken from a watched folder of 500 mixed files (text PDFs, DOCX,
// plain text, CSV; 1-9 KB), against the same 500 through POST /api/new-upload one at a time
// as the baseline, in the same run, on the same app and PostgreSQL (QUIRE_ROLE=api: no job
// runs during either pass). The folder pass is the look that takes the files (the look before
// it only notes them, as a watched folder does); it hashes, stores, claims and records each
// file, then moves it to done/, four files at a time (TAKE_AT_ONCE). The two passes' files differ in their first line, so neither
// finds its content already stored.
//
//   pnpm --filter @quire/api exec tsx bench/intake.ts [--files=500]
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { findSource } from '../src/modules/intake/intake.repository.js';
import { pollSource } from '../src/modules/intake/poll.service.js';
import { docx, textPdf } from '../test/documents.js';
import { bearer, createCategory, createUser, loginAs } from '../test/factories.js';
import { startBenchApp } from './bench-app.js';
import { uploadPayload } from './new-upload.js';

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback);
const FILES = arg('files', 500);

/** The same mixed files every run: four kinds in turn, `tag` on the first line. */
function mixedFiles(n: number, tag: string): Array<{ name: string; content: Buffer; type: string }> {
  const out = [];
  for (let i = 0; i < n; i++) {
    const line = `${tag} document ${i} ${'lorem ipsum dolor '.repeat(10 + (i % 40))}`;
    switch (i % 4) {
      case 0:
        out.push({
          name: `scan-${i}.pdf`,
          content: textPdf([line, 'Total due 1250 EUR']),
          type: 'application/pdf',
        });
        break;
      case 1:
        out.push({
          name: `letter-${i}.docx`,
          content: docx([line]),
          type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        });
        break;
      case 2:
        out.push({ name: `note-${i}.txt`, content: Buffer.from(`${line}\n`), type: 'text/plain' });
        break;
      default:
        out.push({
          name: `table-${i}.csv`,
          content: Buffer.from(`a,b,c\n${i},${line},x\n`),
          type: 'text/csv',
        });
    }
  }
  return out;
}

const bench = await startBenchApp('intake', { QUIRE_ROLE: 'api' });
try {
  const { app, db, config } = bench;
  const owner = await createUser(db, { accessType: 'COMPANY ADMIN' });
  const token = await loginAs(app, owner, 'admin');
  const category = await createCategory(db, { name: 'Bench' });
  const dir = path.join(config.intakeFolders[0] as string, 'bench');
  await mkdir(dir, { recursive: true });
  const row = await db.intakeSource.create({
    data: {
      kind: 'folder',
      name: 'Bench',
      categoryId: category.id,
      ownerId: owner.id,
      settings: { path: dir },
    },
  });
  const source = await findSource(db, row.id);
  if (!source) throw new Error('no source');

  // Baseline: the same kinds of files through the upload call, one at a time.
  const uploads = mixedFiles(FILES, 'upload');
  let started = performance.now();
  for (const f of uploads) {
    const { payload, contentType } = uploadPayload(category.id, f, `intakebench${f.content.length}`);
    const res = await app.inject({
      method: 'POST',
      url: '/api/new-upload',
      payload,
      headers: { 'content-type': contentType, ...bearer(token) },
    });
    if (res.statusCode !== 200) throw new Error(`upload ${f.name}: ${res.statusCode} ${res.body}`);
  }
  const uploadSeconds = (performance.now() - started) / 1000;

  // The watched folder: all files in place, one look notes them, the next takes them.
  for (const f of mixedFiles(FILES, 'intake')) await writeFile(path.join(dir, f.name), f.content);
  await pollSource(app.deps, source);
  started = performance.now();
  const summary = await pollSource(app.deps, source);
  const intakeSeconds = (performance.now() - started) / 1000;
  if (summary?.taken !== FILES)
    throw new Error(`took ${summary?.taken} of ${FILES}: ${JSON.stringify(summary)}`);
  const done = await readdir(path.join(dir, 'done'));
  if (done.length !== FILES) throw new Error(`${done.length} in done/`);

  const intakeRate = FILES / intakeSeconds;
  const uploadRate = FILES / uploadSeconds;
  console.info(
    [
      `intake bench: ${FILES} mixed files (pdf, docx, txt, csv)`,
      `  watched folder        ${intakeRate.toFixed(1)} files/s (${intakeSeconds.toFixed(2)} s)`,
      `  POST /api/new-upload  ${uploadRate.toFixed(1)} files/s (${uploadSeconds.toFixed(2)} s), one at a time`,
      `  ratio folder / upload ${(intakeRate / uploadRate).toFixed(2)}`,
    ].join('\n'),
  );
} finally {
  await bench.close();
}
