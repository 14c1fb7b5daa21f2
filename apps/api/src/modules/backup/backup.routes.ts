import { contract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import { sendBlob } from '../../lib/send-file.js';
import { ARCHIVE_MIME, archives } from './backup.engine.js';
import * as backup from './backup.service.js';
import * as backupSchedule from './backup-schedule.service.js';

export const backupModule = (deps: Deps) =>
  defineRoutes('backup', contract.backup, {
    list: async ({ query }) => ({ data: await backup.listBackups(deps, query) }),
    files: async () => ({ data: await backup.listArchives(deps) }),
    create: async ({ auth, actor }) => ({
      message: 'Backup started',
      data: await backup.createBackup(deps, auth, actor),
    }),
    schedule: async ({ body, auth, actor }) => ({
      message: 'Backup schedule saved',
      data: await backupSchedule.saveSchedule(deps, auth, actor, body),
    }),
    delete: async ({ params, auth, actor }) => {
      await backup.deleteBackup(deps, auth, actor, params.id);
      return { message: 'Backup deleted', data: null };
    },
    deleteFile: async ({ params, auth, actor }) => {
      await backup.deleteBackupFile(deps, auth, actor, params.id);
      return { message: 'Backup file deleted', data: null };
    },
    downloadFile: async ({ params, body, auth, actor, req, reply }) => {
      const file = await backup.archiveForDownload(deps, auth, actor, params.id, body);
      return sendBlob(archives(deps), req, reply, {
        blobId: file.blobId,
        size: file.size,
        mimeType: ARCHIVE_MIME,
        filename: file.fileName,
        disposition: 'attachment',
      });
    },
    upload: {
      maxUploadBytes: deps.config.BACKUP_UPLOAD_MAX_BYTES,
      handler: async ({ body, auth, actor, files }) => {
        await backup.assertMayUpload(deps, auth, actor, body);
        for await (const file of files) {
          return {
            message: 'Backup uploaded and verified',
            data: await backup.uploadArchive(deps, actor, file),
          };
        }
        throw new Error('unreachable: the pipeline refuses an upload without a file');
      },
    },
    restore: async ({ params, body, auth, actor }) => ({
      message: 'Restore started',
      data: await backup.restoreBackup(deps, auth, actor, params.id, body),
    }),
  });
