import { type FieldError, invalidInput, nameTaken, notFound } from '../../lib/errors.js';

export const groupNotFound = () => notFound('Group');

export const groupNameTaken = nameTaken('group');

export const unknownUsers = (ids: number[]): ReturnType<typeof invalidInput> => {
  const errors: FieldError[] = [{ path: 'body.user_ids', message: `Unknown users: ${ids.join(', ')}` }];
  return invalidInput(`user_ids: unknown users ${ids.join(', ')}`, errors);
};
