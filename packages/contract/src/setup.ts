import { z } from 'zod';
import { ZNull, zLine, zMultiline } from './common.js';
import { endpoint } from './http.js';

// Company setup (spec §7 "Setup"): the company's details, logo and background. The login
// screen shows the logo and background before anyone signs in, so they are public; the
// details are read by every signed-in user and changed in Settings.

/** Logo and background: PNG, JPEG or WebP by content (never SVG). */
export const BRANDING_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;
export const BACKGROUND_MAX_BYTES = 8 * 1024 * 1024;

export const ZBranding = z.object({
  company_name: z.string(),
  /** Where to load the logo from (changes when the logo does); null: none set. */
  logo_url: z.string().nullable(),
  background_url: z.string().nullable(),
  /** When the licence ends (ISO time); null while no licence is installed. */
  expiry_date: z.string().nullable(),
});
export type TBranding = z.infer<typeof ZBranding>;

export const ZCompanyDetails = z.object({
  name: z.string(),
  address: z.string(),
  phone: z.string(),
  email: z.string(),
  website: z.string(),
  logo_url: z.string().nullable(),
  background_url: z.string().nullable(),
  updated_at: z.string(),
});
export type TCompanyDetails = z.infer<typeof ZCompanyDetails>;

const ZOptionalText = (max: number) => zLine().trim().max(max);

export const ZCompanyDetailsBody = z
  .object({
    name: zLine().trim().min(1, 'Required').max(120).optional(),
    address: zMultiline().trim().max(500).optional(),
    phone: ZOptionalText(40)
      .regex(/^[0-9+()./\s-]*$/, 'Use digits, spaces and + ( ) . / -')
      .optional(),
    email: z
      .union([
        z.literal(''),
        z.string().trim().toLowerCase().max(254).pipe(z.email('Enter a valid e-mail address')),
      ])
      .optional(),
    website: z
      .union([
        z.literal(''),
        z
          .string()
          .trim()
          .max(255)
          .regex(/^https?:\/\/[^\s]+$/i, 'Use an address starting with http:// or https://'),
      ])
      .optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'Give at least one detail to change' });

/** Multipart field of an upload: one image part `file`. */
export const ZBrandingUpload = z.object({ file: z.custom<Blob>() });

export const ZBrandingImage = z.object({
  url: z.string(),
  mime_type: z.string(),
  size: z.number().int(),
});

const settingsWrite = { area: 'settings', access: 'write' } as const;

export const setupContract = {
  getLogoAndExpiryDate: endpoint({
    method: 'GET',
    path: '/api/get_logo_and_expiry_date',
    guard: 'public',
    summary:
      "The company's name, logo and background addresses (for the login screen) and the licence's expiry",
    response: ZBranding,
  }),
  companyDetails: endpoint({
    method: 'GET',
    path: '/api/company_details',
    guard: 'signedIn',
    summary: "The company's details, logo and background",
    response: ZCompanyDetails,
  }),
  updateCompanyDetails: endpoint({
    method: 'PUT',
    path: '/api/company_details',
    guard: settingsWrite,
    extension: true,
    summary: "Change the company's name, address, phone, e-mail or website",
    body: ZCompanyDetailsBody,
    response: ZCompanyDetails,
  }),
  uploadLogo: endpoint({
    method: 'POST',
    path: '/api/controlpanel/upload-logo',
    guard: settingsWrite,
    consumes: 'multipart',
    upload: { field: 'file' },
    summary: 'Set the company logo: multipart field `file`, PNG, JPEG or WebP (by content), at most 2 MiB',
    body: ZBrandingUpload,
    response: ZBrandingImage,
  }),
  uploadBackground: endpoint({
    method: 'POST',
    path: '/api/controlpanel/upload-background',
    guard: settingsWrite,
    consumes: 'multipart',
    upload: { field: 'file' },
    summary:
      'Set the login background: multipart field `file`, PNG, JPEG or WebP (by content), at most 8 MiB',
    body: ZBrandingUpload,
    response: ZBrandingImage,
  }),
  removeLogo: endpoint({
    method: 'DELETE',
    path: '/api/company/logo',
    guard: settingsWrite,
    extension: true,
    summary: 'Remove the company logo',
    response: ZNull,
  }),
  removeBackground: endpoint({
    method: 'DELETE',
    path: '/api/company/background',
    guard: settingsWrite,
    extension: true,
    summary: 'Remove the login background',
    response: ZNull,
  }),
  logo: endpoint({
    method: 'GET',
    path: '/api/company/logo',
    guard: 'public',
    produces: 'file',
    mediaType: 'image/*',
    extension: true,
    summary: 'The company logo (cached for a year when asked for with its current `?v=`)',
    query: z.object({ v: zLine().max(64).optional() }),
  }),
  background: endpoint({
    method: 'GET',
    path: '/api/company/background',
    guard: 'public',
    produces: 'file',
    mediaType: 'image/*',
    extension: true,
    summary: 'The login background (cached for a year when asked for with its current `?v=`)',
    query: z.object({ v: zLine().max(64).optional() }),
  }),
};
