// Where an unauthenticated visit is sent (spec §2, §8): /login?redirect=<path>, or
// /login?preview=<path> for preview-file pages.

export function loginPathFor(location: { pathname: string; search?: string; hash?: string }): string {
  const target = `${location.pathname}${location.search ?? ''}${location.hash ?? ''}`;
  if (target === '/' || target === '/login') return '/login';
  const key = location.pathname.includes('/preview-file') ? 'preview' : 'redirect';
  return `/login?${new URLSearchParams({ [key]: target }).toString()}`;
}
