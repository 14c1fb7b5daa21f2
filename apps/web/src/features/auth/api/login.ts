import type { Body, contract } from '@quire/contract';
import { callApi, endpointRef } from '../../../lib/api-client';

type LoginEntry = typeof contract.auth.login;
export type LoginInput = Body<LoginEntry>;

// The sign-in page is part of the first load: a reference, not the contract's schemas.
const loginEntry = endpointRef<LoginEntry>({ method: 'POST', path: '/api/login' });

/**
 * POST /api/login. A plain call, not a TanStack Query mutation: the sign-in page loads without
 * the query client (app/lazy-page.tsx), whose core would be a tenth of its first load.
 */
export const login = async (body: LoginInput) => (await callApi(loginEntry, { body })).data;
