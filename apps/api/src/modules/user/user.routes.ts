import { contract, SIGNATURE_MAX_BYTES, USER_IMPORT_MAX_BYTES } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { readParts } from '../../lib/multipart.js';
import { defineRoutes } from '../../lib/route.js';
import * as account from '../account/account.service.js';
import * as users from './user.service.js';

export const userModule = (deps: Deps) =>
  defineRoutes('user', contract.user, {
    current: async ({ auth }) => ({ data: await account.currentUser(deps, auth) }),
    updatePassword: {
      rateLimit: {
        max: 10,
        timeWindow: '1 minute',
        keyGenerator: (req) => `user:${req.auth?.userId ?? req.ip}`,
      },
      handler: async ({ auth, actor, body }) => {
        await account.changeOwnPassword(deps, auth, actor, body);
        return { message: 'Password updated successfully', data: null };
      },
    },
    uploadSignature: async ({ req, auth, actor }) => {
      let image: users.StoredImage | undefined;
      // One byte over the limit reaches the blob store, which refuses it (413).
      const fields = await readParts(req, { fileSize: SIGNATURE_MAX_BYTES + 1 }, async (part) => {
        if (part.fieldname !== 'file' || image) return void part.file.resume();
        image = await users.storeSignatureImage(deps, part.file);
      });
      return {
        message: 'Signature uploaded successfully',
        data: await users.setSignature(deps, auth, actor, { image, userId: fields.user_id }),
      };
    },
    signature: async ({ params, auth, reply }) => {
      const file = await users.readSignature(deps, auth, params.id);
      return reply
        .type(file.mimeType)
        .header('content-length', file.size)
        .header('content-disposition', `inline; filename="${file.filename}"`)
        .header('cache-control', 'private, no-cache')
        .send(file.stream);
    },
    allUsers: async () => ({ data: await users.listUserOptions(deps) }),
    loggedInUsers: async ({ auth }) => ({ data: await users.listLoggedIn(deps, auth) }),
    endSession: async ({ params, auth, actor }) => {
      await users.endSession(deps, auth, actor, params.id);
      return { message: 'The session was ended', data: null };
    },
    unlockSignIn: async ({ auth, actor, body }) => ({
      message: 'The sign-in slowdown was lifted',
      data: await users.unlockSignIn(deps, auth, actor, body.id),
    }),
    createUser: async ({ auth, actor, body }) => ({
      message: 'User created successfully',
      data: await users.createUser(deps, auth, actor, body),
    }),
    createManyUsers: async ({ auth, actor, body }) => {
      const data = await users.createManyUsers(deps, auth, actor, body.users);
      return { message: `${data.created} users created successfully`, data };
    },
    importUsers: async ({ req, auth, actor }) => {
      let content: Buffer | undefined;
      const fields = await readParts(req, { fileSize: USER_IMPORT_MAX_BYTES }, async (part) => {
        if (part.fieldname !== 'file' || content) return void part.file.resume();
        try {
          content = await part.toBuffer();
        } catch (err) {
          throw users.isUploadTooLarge(err) ? users.importTooLarge() : err;
        }
      });
      const data = await users.importUsers(deps, auth, actor, { content, dryRun: fields.dry_run === 'true' });
      return {
        message: data.dry_run ? 'Preview of the import' : `${data.created} users imported successfully`,
        data,
      };
    },
    importTemplate: async ({ reply }) =>
      reply
        .type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('content-disposition', 'attachment; filename="users-import-template.xlsx"')
        .send(await users.importTemplate()),
    editUser: async ({ params, auth, actor, body }) => ({
      message: 'User updated successfully',
      data: await users.editUser(deps, auth, actor, params.id, body),
    }),
    activateUser: async ({ auth, actor, body }) => ({
      message: 'User activated successfully',
      data: await users.setStatus(deps, auth, actor, body.id, 'active'),
    }),
    deactivateUser: async ({ auth, actor, body }) => ({
      message: 'User deactivated successfully',
      data: await users.setStatus(deps, auth, actor, body.id, 'deactivated'),
    }),
    deleteUser: async ({ auth, actor, body }) => ({
      message: 'User deleted successfully',
      data: await users.setStatus(deps, auth, actor, body.id, 'deleted'),
    }),
    resetPassword: async ({ auth, actor, body }) => {
      await users.setPassword(deps, auth, actor, body);
      return { message: 'Password reset successfully', data: null };
    },
    users: async ({ query }) => ({ data: await users.pageUsers(deps, query) }),
  });
