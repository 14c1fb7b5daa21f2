import { contract, endpoint } from '@quire/contract';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { aLogin, aUser } from '../testing/fixtures';
import { type MockReply, type MockRoutes, mockApi } from '../testing/mock-api';
import { callApi, queryKeyFor } from './api-client';
import { ApiError, isAbortError, isNotAuthenticated } from './api-error';
import { authRecordFrom, setAuth } from './storage';

const editUser = endpoint({
  method: 'PUT',
  path: '/api/editUser/{id}',
  guard: 'signedIn',
  summary: 'test entry',
  params: z.object({ id: z.number() }),
  query: z.object({ page: z.number().optional(), search: z.string().optional() }),
  body: z.object({ name: z.string() }),
  response: z.object({ ok: z.boolean() }),
});

describe('callApi', () => {
  it('sends the method, path, query, JSON body and bearer token, and unwraps the envelope', async () => {
    setAuth(authRecordFrom(aLogin('admin', 'COMPANY ADMIN')));
    // A made-up entry on a real path: its answer is not the contract's, on purpose.
    const { calls } = mockApi({
      'PUT /api/editUser/3': { body: { message: 'Saved', data: { ok: true } } },
    } as unknown as MockRoutes);

    const result = await callApi(editUser, {
      params: { id: 3 },
      query: { page: 2, search: 'a b' },
      body: { name: 'N' },
    });

    expect(result).toEqual({ data: { ok: true }, message: 'Saved' });
    expect(calls[0]).toMatchObject({
      method: 'PUT',
      path: '/api/editUser/3',
      search: '?page=2&search=a+b',
      body: { name: 'N' },
      headers: { authorization: 'Bearer token-123', 'content-type': 'application/json' },
    });
  });

  it('sends no Authorization header when nobody is signed in', async () => {
    const { calls } = mockApi({ 'GET /api/user/current': { body: { data: aUser() } } });
    await callApi(contract.user.current);
    expect(calls[0]?.headers.authorization).toBeUndefined();
  });

  it('throws an ApiError with status, message, code and field errors', async () => {
    mockApi({
      'POST /api/login': {
        status: 400,
        body: {
          message: 'Invalid input',
          code: 'validation_failed',
          errors: [{ path: 'body.role', message: 'Bad' }],
        },
      },
    });
    const error = await callApi(contract.auth.login, {
      body: { username: 'a', password: 'b', role: 'user' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      message: 'Invalid input',
      code: 'validation_failed',
      errors: [{ path: 'body.role', message: 'Bad' }],
    });
  });

  it('recognises the not-authenticated answer', async () => {
    mockApi({
      'GET /api/user/current': { status: 401, body: { message: 'You are not authenticated, Please login' } },
    });
    const error = await callApi(contract.user.current).catch((e: unknown) => e);
    expect(isNotAuthenticated(error)).toBe(true);
    expect(isNotAuthenticated(new ApiError(500, { message: 'Boom' }))).toBe(false);
  });

  it('cancels a request in flight when its signal aborts, and lets that be told apart', async () => {
    let arrived = false;
    let answer: (reply: MockReply<typeof contract.user.current>) => void = () => {};
    mockApi({
      'GET /api/user/current': () =>
        new Promise((resolve) => {
          arrived = true;
          answer = resolve;
        }),
    });
    const controller = new AbortController();
    const pending = callApi(contract.user.current, { signal: controller.signal }).catch((e: unknown) => e);
    await vi.waitFor(() => expect(arrived).toBe(true));
    controller.abort();
    // The server answers after all: the aborted call must not take that answer.
    answer({ body: { data: aUser() } });
    const error = await pending;
    expect(isAbortError(error)).toBe(true);
    expect(isAbortError(new ApiError(500, null))).toBe(false);
  });

  it('keys queries by path, params and query', () => {
    expect(queryKeyFor(editUser, { params: { id: 3 }, query: { page: 1 } })).toEqual([
      '/api/editUser/{id}',
      { id: 3 },
      { page: 1 },
    ]);
    expect(queryKeyFor(contract.user.current)).toEqual(['/api/user/current', null, null]);
  });
});
