import { calls } from '@quire/contract/calls';
import { queryOptions, useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** POST /api/users/enable2fa: a new TOTP secret, its otpauth URL and QR code (data URL). */
export const enable2fa = async () => (await callApi(calls.auth.enable2fa)).data;

/**
 * As a query, so that a page opening (twice, under StrictMode) asks for one secret only. Never
 * refetched by itself: each call replaces the secret the authenticator app was given.
 */
export const enable2faQuery = (token: string) =>
  queryOptions({
    queryKey: [calls.auth.enable2fa.path, token] as const,
    queryFn: enable2fa,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

/** Starts 2FA setup on a click (the profile page). */
export function useEnable2fa() {
  return useMutation({ mutationKey: [calls.auth.enable2fa.path], mutationFn: enable2fa });
}
