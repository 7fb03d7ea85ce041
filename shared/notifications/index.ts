// The public face of the notifications feature (notification configurations, their deliveries, destination verification and mail), which server and workers call.
export {
  changeNotificationConfiguration,
  createNotificationConfiguration,
  type NotificationAttrs,
  resendDelivery,
  verifyNotificationConfiguration,
} from './configurations.js';
export { deliverMail, deliverNotifications } from './delivery.js';
export {
  configurationUserIds,
  deleteNotificationConfiguration,
  findDelivery,
  findNotificationConfiguration,
  type NotificationConfigurationRow,
} from './repo.js';
export { runVerification } from './verification.js';
