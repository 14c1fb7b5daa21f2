// Names are unique in any letter case: "Invoices" and "invoices" are one name.

/**
 * The part of a Prisma `where` that finds a row holding `name` in any letter case, other
 * than `exceptId` (the row being renamed).
 */
export const sameName = (name: string, exceptId?: number) => ({
  name: { equals: name, mode: 'insensitive' as const },
  ...(exceptId ? { id: { not: exceptId } } : {}),
});
