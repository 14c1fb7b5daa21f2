import { contract, SIGNATURE_MAX_BYTES, USER_IMPORT_MAX_BYTES, XLSX_MEDIA_TYPE } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import { sendBlob } from '../../lib/send-file.js';
import { readAll } from '../../lib/streams.js';
import * as account from '../account/account.service.js';
import * as creating from './create-users.service.js';
import * as users from './user.service.js';
import * as signatures from './user-signature.service.js';

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
    uploadSignature: {
      maxUploadBytes: SIGNATURE_MAX_BYTES,
      // Per signed-in user: one account cannot fill the disk with attempts.
      rateLimit: {
        max: 20,
        timeWindow: '1 minute',
        keyGenerator: (req) => `user:${req.auth?.userId ?? req.ip}`,
      },
      handler: async ({ body, files, auth, actor }) => {
        // Who may be changed is settled before a byte of the file is read.
        const target = await signatures.signatureTarget(deps, auth, body.user_id);
        for await (const file of files) {
          const image = await signatures.storeSignatureImage(deps, file.stream);
          return {
            message: 'Signature uploaded successfully',
            data: await signatures.setSignature(deps, auth, actor, target, image),
          };
        }
        throw new Error('unreachable: the pipeline refuses an upload without its file');
      },
    },
    signature: async ({ params, auth, req, reply }) =>
      sendBlob(deps.blobs, req, reply, {
        ...(await signatures.readSignature(deps, auth, params.id)),
        disposition: 'inline',
      }),
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
      data: await creating.createUser(deps, auth, actor, body),
    }),
    createManyUsers: async ({ auth, actor, body }) => {
      const data = await creating.createManyUsers(deps, auth, actor, body.users);
      return { message: `${data.created} users created successfully`, data };
    },
    importUsers: {
      maxUploadBytes: USER_IMPORT_MAX_BYTES,
      handler: async ({ body, files, auth, actor }) => {
        for await (const file of files) {
          const content = await readAll(file.stream);
          const data = await creating.importUsers(deps, auth, actor, {
            content,
            dryRun: body.dry_run === 'true',
          });
          return {
            message: data.dry_run ? 'Preview of the import' : `${data.created} users imported successfully`,
            data,
          };
        }
        throw new Error('unreachable: the pipeline refuses an upload without its file');
      },
    },
    importTemplate: async ({ reply }) =>
      reply
        .type(XLSX_MEDIA_TYPE)
        .header('content-disposition', 'attachment; filename="users-import-template.xlsx"')
        .send(await creating.importTemplate()),
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
