import { invalidInput, notFound } from '../../lib/errors.js';

export const notABrandingImage = () =>
  invalidInput('The image must be a PNG, JPEG or WebP file (SVG is not accepted)', [
    { path: 'body.file', message: 'Not a PNG, JPEG or WebP image' },
  ]);

export const companyMissing = () => notFound('Company');

export const imageNotSet = (what: 'logo' | 'background') => notFound(what === 'logo' ? 'Logo' : 'Background');
