import { createHash } from 'node:crypto';
import type { TLicence, TLicenceState } from '@quire/contract';
import { type Actor, audit } from '../../lib/audit.js';
import type { Deps, Tx } from '../../lib/deps.js';
import { LicenceDocumentError, VENDOR_PUBLIC_KEY, verifyLicence } from './licence.document.js';
import {
  invalidLicenceMessage,
  licenceAlreadyExpired,
  licenceAlreadyInstalled,
  licenceNotValid,
  licenceRefused,
  readOnlyAfterExpiry,
  seatLimitReached,
} from './licence.errors.js';
import * as repo from './licence.repository.js';

const DAY_MS = 86_400_000;

/** The installed licence's terms, or null when none is installed (no limits apply then). */
interface CurrentLicence {
  licensee: string;
  seats: number;
  startsAt: Date;
  expiresAt: Date;
  features: string[];
  installedAt: Date;
  installedBy: string | null;
}

/**
 * What the licence table holds, read the only way it is believed: the installed document's
 * signature checked again on every read (decision 014). A row whose document does not verify
 * (put there through the database or a restored backup, never through install) is not a
 * licence: Quire is read-only and takes no new seats until a valid one is installed.
 */
type LicenceReading =
  | { kind: 'none' }
  | { kind: 'valid'; licence: CurrentLicence }
  | { kind: 'invalid'; reason: string };

const publicKeyOf = (deps: Pick<Deps, 'config'>) => deps.config.LICENCE_PUBLIC_KEY ?? VENDOR_PUBLIC_KEY;
const day = (d: Date) => d.toISOString().slice(0, 10);

async function readLicence(deps: Pick<Deps, 'config'>, db: Tx): Promise<LicenceReading> {
  return readingOf(deps, await repo.findCurrent(db));
}

function readingOf(deps: Pick<Deps, 'config'>, row: repo.InstalledLicence | null): LicenceReading {
  if (!row) return { kind: 'none' };
  let payload: ReturnType<typeof verifyLicence>;
  try {
    payload = verifyLicence(row.document, publicKeyOf(deps));
  } catch (err) {
    if (err instanceof LicenceDocumentError) return { kind: 'invalid', reason: err.message };
    throw err;
  }
  // The terms come from the signed document, never from the row's own columns.
  return {
    kind: 'valid',
    licence: {
      licensee: payload.licensee,
      seats: payload.seats,
      startsAt: new Date(payload.starts_at),
      expiresAt: new Date(payload.expires_at),
      features: payload.features,
      installedAt: row.installedAt,
      installedBy: row.installedBy?.username ?? null,
    },
  };
}

/** Whole days left (negative once expired). */
function daysLeft(expiresAt: Date, now: Date): number {
  return Math.floor((expiresAt.getTime() - now.getTime()) / DAY_MS);
}

function toDto(l: CurrentLicence): TLicence {
  return {
    licensee: l.licensee,
    seats: l.seats,
    starts_at: l.startsAt.toISOString(),
    expires_at: l.expiresAt.toISOString(),
    features: l.features,
    installed_at: l.installedAt.toISOString(),
    installed_by: l.installedBy,
  };
}

export async function licenceState(deps: Deps): Promise<TLicenceState> {
  const [reading, used] = await Promise.all([readLicence(deps, deps.db), repo.countSeatsUsed(deps.db)]);
  const now = deps.now();
  if (reading.kind === 'invalid')
    return {
      licence: null,
      seats_used: used,
      days_left: null,
      read_only: true,
      problem: invalidLicenceMessage(reading.reason),
    };
  const licence = reading.kind === 'valid' ? reading.licence : null;
  return {
    licence: licence ? toDto(licence) : null,
    seats_used: used,
    days_left: licence ? daysLeft(licence.expiresAt, now) : null,
    read_only: licence ? licence.expiresAt <= now : false,
    problem: null,
  };
}

/** Installs a licence whose signature verifies; the one before it is kept, marked replaced. */
export async function installLicence(deps: Deps, text: string, actor: Actor): Promise<TLicenceState> {
  const document = text.replace(/\s+/g, '');
  let payload: ReturnType<typeof verifyLicence>;
  try {
    payload = verifyLicence(document, publicKeyOf(deps));
  } catch (err) {
    if (err instanceof LicenceDocumentError) {
      await audit(deps.db, actor, {
        type: 'licence',
        action: 'licence.refused',
        message: `A licence was refused: ${err.message}`,
      });
      throw licenceRefused(err.message);
    }
    throw err;
  }
  const expiresAt = new Date(payload.expires_at);
  const now = deps.now();
  if (expiresAt <= now) throw licenceAlreadyExpired(day(expiresAt));
  const sha = createHash('sha256').update(document).digest('hex');
  await deps.db.$transaction(async (tx) => {
    if (await repo.findBySha(tx, sha)) throw licenceAlreadyInstalled();
    await repo.replaceCurrent(tx, now);
    const row = await repo.create(tx, {
      document,
      documentSha256: sha,
      licensee: payload.licensee,
      seats: payload.seats,
      startsAt: new Date(payload.starts_at),
      expiresAt,
      features: payload.features,
      installedById: actor.userId,
      installedAt: now,
    });
    await audit(tx, actor, {
      type: 'licence',
      action: 'licence.installed',
      message: `Licence installed for ${payload.licensee}: ${payload.seats} seats until ${day(expiresAt)}`,
      targetType: 'licence',
      targetId: row.id,
      details: {
        licensee: payload.licensee,
        seats: payload.seats,
        starts_at: payload.starts_at,
        expires_at: payload.expires_at,
        features: payload.features,
        ...(payload.id ? { reference: payload.id } : {}),
      },
    });
  });
  gateReads.delete(deps.db);
  return licenceState(deps);
}

/**
 * Seats: refuses (409) when `adding` more active accounts would pass the licence's seats.
 * Call it inside the transaction that creates or activates them (user area, directory
 * sign-in); it takes a lock so two such transactions cannot both take the last seat.
 * Without a licence nothing is counted.
 */
export async function assertSeatsAvailable(
  deps: Pick<Deps, 'config'>,
  tx: Tx,
  adding: number,
): Promise<void> {
  if (adding <= 0) return;
  await repo.lockSeats(tx);
  const reading = await readLicence(deps, tx);
  if (reading.kind === 'none') return;
  if (reading.kind === 'invalid') throw licenceNotValid(reading.reason);
  const used = await repo.countSeatsUsed(tx);
  if (used + adding > reading.licence.seats) throw seatLimitReached(reading.licence.seats, used);
}

/**
 * How long the write gate keeps its read of the installed licence row (decision 014): every
 * call that writes passes the gate, and one read in that time serves them all. An install on
 * this server is seen at once (installLicence forgets the read); one on another server, or a
 * row put in the table by hand, within this time. The document's signature is checked on
 * every use all the same.
 */
export const LICENCE_READ_MS = 1000;
const gateReads = new WeakMap<Deps['db'], { at: number; row: Promise<repo.InstalledLicence | null> }>();

function installedForGate(deps: Deps): Promise<repo.InstalledLicence | null> {
  const now = performance.now();
  const kept = gateReads.get(deps.db);
  if (kept && now - kept.at < LICENCE_READ_MS) return kept.row;
  const row = repo.findCurrentOnPool(deps.db);
  const read = { at: now, row };
  gateReads.set(deps.db, read);
  // A failed read is not kept: the next call reads again.
  row.catch(() => {
    if (gateReads.get(deps.db) === read) gateReads.delete(deps.db);
  });
  return row;
}

/**
 * Throws the read-only refusal when the licence has expired, or when the installed one does
 * not verify (the request pipeline's check).
 */
export async function assertWritable(deps: Deps): Promise<void> {
  const reading = readingOf(deps, await installedForGate(deps));
  if (reading.kind === 'invalid') throw licenceNotValid(reading.reason);
  if (reading.kind === 'valid' && reading.licence.expiresAt <= deps.now())
    throw readOnlyAfterExpiry(day(reading.licence.expiresAt));
}
