/** Imports every page module (what the router loads lazily), so that tests find them compiled. */
export async function preloadPages(): Promise<void> {
  await Promise.all(
    Object.values(
      import.meta.glob(['../features/*/routes/*.tsx', '!**/*.test.tsx', '../app/signed-in-layout.tsx']),
    ).map((load) => load()),
  );
}
