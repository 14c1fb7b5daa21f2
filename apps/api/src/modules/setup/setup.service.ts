import type { Readable } from 'node:stream';
import { BACKGROUND_MAX_BYTES, LOGO_MAX_BYTES, type TBranding, type TCompanyDetails } from '@quire/contract';
import { type Actor, audit } from '../../lib/audit.js';
import { recordBlob } from '../../lib/blob-rows.js';
import type { Deps } from '../../lib/deps.js';
import { IMAGE_EXTENSIONS, type ImageType, sniffImage } from '../../lib/image-type.js';
import { companyMissing, imageNotSet, notABrandingImage } from './setup.errors.js';
import * as repo from './setup.repository.js';

// Company setup: the details, the logo and the login background. Images are stored in the
// blob store once their first bytes say PNG, JPEG or WebP; their address carries a version
// (the start of the content hash), so a browser may keep one for a year and still sees a
// new one at once.

export type BrandingImage = 'logo' | 'background';
const MAX_BYTES: Record<BrandingImage, number> = { logo: LOGO_MAX_BYTES, background: BACKGROUND_MAX_BYTES };
const PATHS: Record<BrandingImage, string> = {
  logo: '/api/company/logo',
  background: '/api/company/background',
};

/** The version an image's address carries: it changes whenever the image does. */
const versionOf = (blobId: string) => blobId.slice(0, 16);
const urlOf = (what: BrandingImage, blobId: string | null) =>
  blobId ? `${PATHS[what]}?v=${versionOf(blobId)}` : null;

export async function branding(deps: Deps): Promise<TBranding> {
  const company = await repo.findCompany(deps.db);
  return {
    company_name: company?.name ?? deps.config.COMPANY_NAME,
    logo_url: urlOf('logo', company?.logoBlobId ?? null),
    background_url: urlOf('background', company?.backgroundBlobId ?? null),
    // The licence area sets this once licences are installed; none is read here yet.
    expiry_date: null,
  };
}

type CompanyRow = NonNullable<Awaited<ReturnType<typeof repo.findCompany>>>;

function toDetails(c: CompanyRow): TCompanyDetails {
  return {
    name: c.name,
    address: c.address,
    phone: c.phone,
    email: c.email,
    website: c.website,
    logo_url: urlOf('logo', c.logoBlobId),
    background_url: urlOf('background', c.backgroundBlobId),
    updated_at: c.updatedAt.toISOString(),
  };
}

export async function companyDetails(deps: Deps): Promise<TCompanyDetails> {
  const company = await repo.findCompany(deps.db);
  if (!company) throw companyMissing();
  return toDetails(company);
}

export async function updateCompanyDetails(
  deps: Deps,
  actor: Actor,
  input: { name?: string; address?: string; phone?: string; email?: string; website?: string },
): Promise<TCompanyDetails> {
  return deps.db.$transaction(async (tx) => {
    const before = await repo.findCompany(tx);
    if (!before) throw companyMissing();
    const after = await repo.updateCompany(tx, before.id, input);
    const changes = Object.fromEntries(
      (Object.keys(input) as Array<keyof typeof input>)
        .filter((k) => input[k] !== undefined && input[k] !== before[k])
        .map((k) => [k, { before: before[k], after: input[k] ?? null }]),
    );
    await audit(tx, actor, {
      type: 'setup',
      action: 'company.updated',
      message: `Changed the company details (${Object.keys(changes).join(', ') || 'nothing changed'})`,
      targetType: 'company',
      targetId: before.id,
      details: changes,
    });
    return toDetails(after);
  });
}

/**
 * Stores an uploaded image (at most the image's limit, the pipeline's too) once its first
 * bytes say PNG, JPEG or WebP, and sets it as the company's logo or background. A refused
 * file leaves nothing behind.
 */
export async function setImage(deps: Deps, actor: Actor, what: BrandingImage, content: Readable) {
  const company = await repo.findCompany(deps.db);
  if (!company) throw companyMissing();
  let mimeType: ImageType | null = null;
  const stored = await deps.blobs.put(content, {
    maxBytes: MAX_BYTES[what],
    inspectBytes: 16,
    inspect: (head) => {
      mimeType = sniffImage(head);
      if (!mimeType) throw notABrandingImage();
    },
  });
  const type = mimeType as ImageType | null;
  if (!type) throw notABrandingImage();
  await deps.db.$transaction(async (tx) => {
    await recordBlob(tx, { id: stored.id, size: stored.size, mimeType: type });
    await repo.updateCompany(
      tx,
      company.id,
      what === 'logo' ? { logoBlobId: stored.id } : { backgroundBlobId: stored.id },
    );
    await audit(tx, actor, {
      type: 'setup',
      action: `company.${what}_updated`,
      message: `Uploaded a new ${what === 'logo' ? 'company logo' : 'login background'}`,
      targetType: 'company',
      targetId: company.id,
      details: {
        blob_id: stored.id,
        size: stored.size,
        mime_type: type,
        before: what === 'logo' ? company.logoBlobId : company.backgroundBlobId,
      },
    });
  });
  return { url: urlOf(what, stored.id)!, mime_type: type, size: stored.size };
}

export async function removeImage(deps: Deps, actor: Actor, what: BrandingImage): Promise<void> {
  await deps.db.$transaction(async (tx) => {
    const company = await repo.findCompany(tx);
    if (!company) throw companyMissing();
    const before = what === 'logo' ? company.logoBlobId : company.backgroundBlobId;
    if (!before) throw imageNotSet(what);
    await repo.updateCompany(
      tx,
      company.id,
      what === 'logo' ? { logoBlobId: null } : { backgroundBlobId: null },
    );
    await audit(tx, actor, {
      type: 'setup',
      action: `company.${what}_removed`,
      message: `Removed the ${what === 'logo' ? 'company logo' : 'login background'}`,
      targetType: 'company',
      targetId: company.id,
      details: { before },
    });
  });
}

/**
 * The image to send: asked for with its current version it may be kept for a year; otherwise
 * the browser checks back each time (the ETag answers 304 while it is unchanged).
 */
export async function readImage(deps: Deps, what: BrandingImage, version: string | undefined) {
  const company = await repo.findCompany(deps.db);
  const blobId = what === 'logo' ? company?.logoBlobId : company?.backgroundBlobId;
  const blob = blobId ? await repo.findBlob(deps.db, blobId) : null;
  if (!blob || !(await deps.blobs.exists(blob.id))) throw imageNotSet(what);
  const type = blob.mimeType as ImageType;
  return {
    blobId: blob.id,
    size: Number(blob.size),
    mimeType: blob.mimeType,
    filename: `${what}.${IMAGE_EXTENSIONS[type] ?? 'img'}`,
    cacheControl: version === versionOf(blob.id) ? 'public, max-age=31536000, immutable' : 'public, no-cache',
  };
}
