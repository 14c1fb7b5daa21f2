import { calls } from '@quire/contract/calls';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../../lib/api-client';

/** GET /api/user-signature/{id} (an extension): the signature image, as a Blob. */
export const userSignatureQuery = (id: number) => apiQueryOptions(calls.user.signature, { params: { id } });

export function useUserSignature(id: number | undefined) {
  return useQuery({ ...userSignatureQuery(id ?? 0), enabled: id !== undefined, retry: false });
}
