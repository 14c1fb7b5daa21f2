import { z } from 'zod';
import { ZIdParams, ZPageMeta, ZPageQuery } from './common.js';
import { endpoint } from './http.js';

// In-app notifications (spec §7 "Notification"): the bell. Followers of a file are told when
// it changes, people a file is shared with when it is.

export const ZNotification = z.object({
  id: z.number().int(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  file_id: z.number().int().nullable(),
  /** A path in the web client. */
  link: z.string().nullable(),
  read: z.boolean(),
  created_at: z.string(),
});
export type TNotification = z.infer<typeof ZNotification>;

export const ZNotificationPage = ZPageMeta.extend({
  items: z.array(ZNotification),
  unread: z.number().int(),
});

export const notificationContract = {
  getNotification: endpoint({
    method: 'GET',
    path: '/api/get-notification',
    guard: 'signedIn',
    summary: 'Your notifications, newest first, with the number unread',
    query: ZPageQuery(20),
    response: ZNotificationPage,
  }),
  markNotificationAsRead: endpoint({
    method: 'POST',
    path: '/api/mark-notification-as-read/{id}',
    guard: 'signedIn',
    summary: 'Mark one of your notifications read',
    params: ZIdParams,
    response: ZNotification,
  }),
  clearNotifications: endpoint({
    method: 'POST',
    path: '/api/clear-notifications',
    guard: 'signedIn',
    summary: 'Delete all your notifications',
    response: z.object({ cleared: z.number().int() }),
  }),
};
