import { ZUser } from './common.js';
import { endpoint } from './http.js';

export const userContract = {
  current: endpoint({
    method: 'GET',
    path: '/api/user/current',
    guard: 'session',
    summary: 'The signed-in user',
    response: ZUser,
  }),
};
