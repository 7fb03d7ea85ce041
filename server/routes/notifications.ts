import { Router } from 'express';
import type { AppDeps } from '../context.js';
import { validate } from '../validate.js';
import { notificationConfigurationHandlers } from '../handlers/notification-configurations.js';

/** Notification configurations and the delivery log. */
export function notificationRoutes(deps: AppDeps): Router {
  const r = Router();
  const nc = notificationConfigurationHandlers(deps);
  r.post('/workspaces/:id/notification-configurations', validate('notification.create'), nc.create);
  r.get('/workspaces/:id/notification-configurations', nc.list);
  r.get('/notification-configurations/:id', nc.show);
  r.patch('/notification-configurations/:id', validate('notification.update'), nc.update);
  r.delete('/notification-configurations/:id', nc.destroy);
  r.post('/notification-configurations/:id/actions/verify', nc.verifyAction);
  r.get('/notification-configurations/:id/deliveries', nc.deliveries);
  r.post('/notification-deliveries/:id/actions/resend', nc.resend);
  return r;
}
