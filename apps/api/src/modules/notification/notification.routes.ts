import { contract } from '@quire/contract';
import type { Deps } from '../../lib/deps.js';
import { defineRoutes } from '../../lib/route.js';
import * as notifications from './notification.service.js';

export const notificationModule = (deps: Deps) =>
  defineRoutes('notification', contract.notification, {
    getNotification: async ({ auth, query }) => ({
      data: await notifications.myNotifications(deps, auth, query),
    }),
    markNotificationAsRead: async ({ auth, actor, params }) => ({
      message: 'Notification marked as read',
      data: await notifications.markAsRead(deps, auth, actor, params.id),
    }),
    clearNotifications: async ({ auth, actor }) => ({
      message: 'Notifications cleared',
      data: await notifications.clearNotifications(deps, auth, actor),
    }),
  });
