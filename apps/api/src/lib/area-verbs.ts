import type { Access, Area } from '@quire/contract';

/** "You are not allowed to …" for each area and access. */
export const AREA_VERBS: Record<Area, Record<Access, string>> = {
  fileControl: { read: 'view File Control', write: 'change File Control' },
  settings: { read: 'view Settings', write: 'change Settings' },
  licence: { read: 'view the licence', write: 'manage the licence' },
};
