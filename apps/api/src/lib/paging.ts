/** `?page&quantity` as the contract parses them (ZPageQuery). */
export interface PageQuery {
  page: number;
  quantity: number;
}

/** Prisma's skip/take for a page. */
export function pageWindow(q: PageQuery): { skip: number; take: number } {
  return { skip: (q.page - 1) * q.quantity, take: q.quantity };
}

/** The page fields of every list answer (ZPageMeta). */
export function pageMeta(q: PageQuery, total: number) {
  return { page: q.page, quantity: q.quantity, total, last_page: Math.max(1, Math.ceil(total / q.quantity)) };
}
