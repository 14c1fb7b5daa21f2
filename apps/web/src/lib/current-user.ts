import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from './api-client';
import { getAuth, getUserData } from './storage';

export const currentUserQuery = () => apiQueryOptions(calls.user.current);

/** GET /api/user/current for the signed-in session; `user` falls back to the stored userData. */
export function useCurrentUser() {
  const query = useQuery({ ...currentUserQuery(), enabled: getAuth() !== null, staleTime: 5 * 60_000 });
  return { ...query, user: query.data ?? getUserData() };
}
