import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

// The trained data of each text recognition language comes from its npm package,
// `@tesseract.js-data/<code>` (installed with Quire, never fetched at run time). The LSTM
// "best_int" model is used: the smallest (eng: 2.9 MB gzipped) and what OEM LSTM_ONLY reads.

const require = createRequire(import.meta.url);

export interface OcrLanguage {
  code: string;
  /** The gzipped .traineddata file. */
  file: string;
}

/** The trained data file of language `code`, or null when its package is not installed. */
function ocrLanguageFile(code: string): string | null {
  let dir: string;
  try {
    dir = path.dirname(require.resolve(`@tesseract.js-data/${code}/package.json`));
  } catch {
    return null;
  }
  for (const model of ['4.0.0_best_int', '4.0.0']) {
    const file = path.join(dir, model, `${code}.traineddata.gz`);
    if (existsSync(file)) return file;
  }
  return null;
}

/** OCR_LANGUAGES (`eng+deu`, or `off`) as languages; empty when text recognition is off. */
export function ocrLanguages(setting: string): OcrLanguage[] {
  if (setting === 'off') return [];
  return setting.split('+').map((code) => ({ code, file: ocrLanguageFile(code) ?? '' }));
}

/** The languages of `setting` whose package is not installed. */
export function missingOcrLanguages(setting: string): string[] {
  return ocrLanguages(setting)
    .filter((l) => !l.file)
    .map((l) => l.code);
}
