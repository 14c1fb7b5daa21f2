import { type FieldError, invalidInput, notFound } from '../../lib/errors.js';

export const groupNotFound = () => notFound('Group');

export const groupNameTaken = (name: string) =>
  invalidInput(`A group named "${name}" already exists`, [
    { path: 'body.name', message: 'A group with this name already exists' },
  ]);

export const unknownUsers = (ids: number[]): ReturnType<typeof invalidInput> => {
  const errors: FieldError[] = [{ path: 'body.user_ids', message: `Unknown users: ${ids.join(', ')}` }];
  return invalidInput(`user_ids: unknown users ${ids.join(', ')}`, errors);
};
