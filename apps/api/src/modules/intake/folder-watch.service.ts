import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type TFolderSettings, ZFolderSettings } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import * as repo from './intake.repository.js';
import { mb, takeArrival } from './take-arrival.service.js';

// Watched folders: each look (a poll) lists the files in a source's folder (and, with
// `subfolders`, its sub-folders, mapped to sub-categories by name), and takes those whose size
// and modification time have not changed since the previous look, so a file still being
// written (or copied in slowly) waits. A taken file moves to `done/`, a refused one to
// `failed/` with `<name>.reason.txt` beside it; both keep the path they had under the folder.
//
// Nothing is lost or taken twice when the server dies at any point: a file leaves the folder
// only after its arrival has committed, and its arrival's key (path, size, modification time,
// sha256) is claimed in the transaction that files it, so a file found again after a crash is
// recognised and only moved on.

/** Where taken and refused files go, under the watched folder (never looked into). */
const DONE_DIR = 'done';
const FAILED_DIR = 'failed';
/** Files being written under a temporary name are left alone until they are renamed. */
const TEMPORARY = /(\.part|\.partial|\.tmp|\.temp|\.crdownload|\.download|\.swp|~)$/i;
/** How deep sub-folders are looked into. */
const MAX_DEPTH = 8;
/** Files of one look taken at the same time. */
const TAKE_AT_ONCE = 4;

interface FolderFile {
  /** The path under the watched folder, with `/` between its parts. */
  rel: string;
  abs: string;
  size: number;
  mtimeMs: number;
}

/**
 * What the last look at each source saw, in this process: a file is taken when a look finds it
 * as the one before did. (After a restart, or on another server, the first look only notes.)
 */
const lastLook = new Map<number, Map<string, { size: number; mtimeMs: number }>>();

function folderSettings(settings: unknown): TFolderSettings {
  return ZFolderSettings.parse(settings);
}

async function* filesUnder(
  root: string,
  subfolders: boolean,
  dir = '',
  depth = 0,
): AsyncGenerator<FolderFile> {
  const entries = await readdir(path.join(root, dir), { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    if (e.name.startsWith('.') || e.name.startsWith('~$')) continue;
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (!dir && (e.name === DONE_DIR || e.name === FAILED_DIR)) continue;
      if (subfolders && depth < MAX_DEPTH) yield* filesUnder(root, subfolders, rel, depth + 1);
      continue;
    }
    // Links are not followed: the folder's own files only.
    if (!e.isFile() || TEMPORARY.test(e.name)) continue;
    const abs = path.join(root, rel);
    const s = await lstat(abs).catch(() => null);
    if (!s?.isFile()) continue;
    yield { rel, abs, size: s.size, mtimeMs: Math.trunc(s.mtimeMs) };
  }
}

/** `name (2).pdf`, `name (3).pdf`, … until the name is free. */
async function freeName(target: string) {
  if (!existsSync(target)) return target;
  const ext = path.extname(target);
  const stem = target.slice(0, target.length - ext.length);
  for (let n = 2; ; n++) {
    const next = `${stem} (${n})${ext}`;
    if (!existsSync(next)) return next;
  }
}

/** Moves a file to done/ or failed/ (keeping its path under the folder), with the reason. */
async function moveOn(root: string, file: FolderFile, to: 'done' | 'failed', reason: string | null) {
  const target = await freeName(path.join(root, to === 'done' ? DONE_DIR : FAILED_DIR, file.rel));
  await mkdir(path.dirname(target), { recursive: true });
  // The reason first: a crash between the two leaves the file to be moved again, reason and all.
  if (reason) await writeFile(`${target}.reason.txt`, `${reason}\n`);
  await rename(file.abs, target).catch((err: NodeJS.ErrnoException) => {
    // Another server's look moved it first.
    if (err.code !== 'ENOENT') throw err;
  });
}

/** The arrival key of a folder file: its path, size, modification time and sha256. */
export function folderKey(file: Pick<FolderFile, 'rel' | 'size' | 'mtimeMs'>, sha256: string) {
  return `${file.rel}|${file.size}|${file.mtimeMs}|${sha256}`;
}

/** The sub-category a file in sub-folders goes to, or the reason it cannot. */
async function categoryFor(deps: Deps, source: repo.SourceRow, rel: string) {
  const dirs = rel.split('/').slice(0, -1);
  let category: { id: number; name: string } = source.category;
  for (const dir of dirs) {
    const child = await repo.childCategory(deps.db, category.id, dir);
    if (!child) return { reason: `There is no sub-category "${dir}" under "${category.name}"` };
    category = child;
  }
  return { id: category.id };
}

interface PollSummary {
  taken: number;
  failed: number;
  /** Files seen changing, or seen for the first time: taken on a later look if they stay. */
  waiting: number;
}

/** One look at a watched folder. Throws when the folder cannot be read (the source's error). */
export async function pollFolder(deps: Deps, source: repo.SourceRow): Promise<PollSummary> {
  const settings = folderSettings(source.settings);
  const root = settings.path;
  const info = await stat(root).catch(() => null);
  if (!info?.isDirectory()) throw new Error(`The folder ${root} does not exist or is not a folder`);
  const before = lastLook.get(source.id) ?? new Map();
  const now = new Map<string, { size: number; mtimeMs: number }>();
  const summary: PollSummary = { taken: 0, failed: 0, waiting: 0 };
  const stable: FolderFile[] = [];
  for await (const file of filesUnder(root, settings.subfolders)) {
    now.set(file.rel, { size: file.size, mtimeMs: file.mtimeMs });
    const seen = before.get(file.rel);
    if (seen && seen.size === file.size && seen.mtimeMs === file.mtimeMs) stable.push(file);
    else summary.waiting++;
  }
  lastLook.set(source.id, now);
  // A few files at a time: each waits mostly on the disk and the database.
  let next = 0;
  const worker = async () => {
    while (next < stable.length) {
      const file = stable[next++] as FolderFile;
      const outcome = await takeFolderFile(deps, source, file);
      if (outcome === 'gone') continue;
      summary[outcome]++;
      now.delete(file.rel);
    }
  };
  await Promise.all(Array.from({ length: Math.min(TAKE_AT_ONCE, stable.length) }, worker));
  return summary;
}

/** Takes one file that has stopped changing, and moves it on. */
async function takeFolderFile(
  deps: Deps,
  source: repo.SourceRow,
  file: FolderFile,
): Promise<'taken' | 'failed' | 'gone'> {
  const root = folderSettings(source.settings).path;
  const target = await categoryFor(deps, source, file.rel);
  const max = deps.config.MAX_UPLOAD_BYTES;
  const refusal =
    'reason' in target
      ? target.reason
      : file.size > max
        ? `It is larger than the largest upload (${mb(max)})`
        : undefined;
  const out = await takeArrival(deps, {
    sourceId: source.id,
    // A file refused unread is known by path, size and time (its content is not hashed).
    externalKey: refusal ? folderKey(file, '-') : (c) => folderKey(file, c.sha256),
    fileName: path.basename(file.rel),
    source,
    ...(refusal ? { refusal } : { path: file.abs }),
    ...('id' in target ? { categoryId: target.id } : {}),
  }).catch((err: NodeJS.ErrnoException) => {
    // Moved away since the listing (another server's look took it first).
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (!out) return 'gone';
  if (out.outcome === 'taken') {
    await moveOn(root, file, 'done', null);
    return 'taken';
  }
  if (out.outcome === 'failed') {
    await moveOn(root, file, 'failed', out.reason);
    return 'failed';
  }
  // Taken (or refused) before, by a look that died before it could move the file on.
  await moveOn(root, file, out.status === 'taken' ? 'done' : 'failed', out.reason);
  return 'gone';
}

/**
 * A failed arrival of a folder, taken again: its file goes back from failed/ into the folder
 * (its reason file removed), and its arrival is deleted, so the next looks take it afresh.
 * Throws a sentence when the file is no longer in failed/.
 */
export async function returnFailedFile(source: repo.SourceRow, externalKey: string): Promise<string> {
  const root = folderSettings(source.settings).path;
  const [rel, size, mtimeMs] = splitKey(externalKey);
  const first = path.join(root, FAILED_DIR, rel);
  const ext = path.extname(first);
  const stem = first.slice(0, first.length - ext.length);
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? first : `${stem} (${n})${ext}`;
    const s = await lstat(candidate).catch(() => null);
    if (!s) {
      if (n > 1) break;
      continue;
    }
    if (!s.isFile() || s.size !== size || Math.trunc(s.mtimeMs) !== mtimeMs) continue;
    const back = await freeName(path.join(root, rel));
    await mkdir(path.dirname(back), { recursive: true });
    await rename(candidate, back);
    await rm(`${candidate}.reason.txt`, { force: true });
    return back;
  }
  throw new Error(`${path.join(FAILED_DIR, rel)} is no longer in the folder ${root}`);
}

/** `rel|size|mtime|sha256` -> its parts (the path may hold `|` itself). */
function splitKey(key: string): [string, number, number] {
  const parts = key.split('|');
  const mtimeMs = Number(parts[parts.length - 2]);
  const size = Number(parts[parts.length - 3]);
  return [parts.slice(0, -3).join('|'), size, mtimeMs];
}

/** Forgets what this process saw of a source (its folder changed, or it went). */
export function forgetLooks(sourceId: number) {
  lastLook.delete(sourceId);
}
