import type { Tx } from '../../lib/deps.js';

export function findCompany(db: Tx) {
  return db.company.findFirst({ orderBy: { id: 'asc' } });
}

export function updateCompany(
  tx: Tx,
  id: number,
  data: {
    name?: string;
    address?: string;
    phone?: string;
    email?: string;
    website?: string;
    logoBlobId?: string | null;
    backgroundBlobId?: string | null;
  },
) {
  return tx.company.update({ where: { id }, data });
}

export function findBlob(db: Tx, id: string) {
  return db.blob.findUnique({ where: { id } });
}
