// The public face of the notifications feature (notification configurations, their deliveries and destination verification), which server and workers call.
export {
  changeNotificationConfiguration,
  createNotificationConfiguration,
  type NotificationAttrs,
  resendDelivery,
  verifyNotificationConfiguration,
} from './configurations.js';
export { deliverNotifications } from './delivery.js';
export {
  configurationUserIds,
  deleteNotificationConfiguration,
  findDelivery,
  findNotificationConfiguration,
  type NotificationConfigurationRow,
} from './repo.js';
export { runVerification, verifyDestination } from './verification.js';
export { assessmentPayload, assessmentResultJson, autoDestroyPayload } from './payloads.js';
export { recordDeliveries } from './triggers.js';
export { deliveriesDue } from './deliveries.repo.js';
export { verificationsDue } from './verifications.repo.js';
export { registerNotifications } from './triggers.js';
