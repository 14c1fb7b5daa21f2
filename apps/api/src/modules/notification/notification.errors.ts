import { AppError } from '../../lib/errors.js';

/** Another user's notification, or one that does not exist: the same answer. */
export const notificationNotFound = () =>
  new AppError('notification.not_found', 404, 'Notification not found', undefined, { refusal: true });
