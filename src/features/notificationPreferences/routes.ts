import type { App } from '../../http/app.ts';
import { errors } from '../../http/schemas.ts';
import { getPreferences } from './getPreferences.ts';
import { NotificationPreferences, NotificationPreferencesBody } from './schemas.ts';
import { setPreferences } from './setPreferences.ts';

const tags = ['notification preferences'];
const sessionOnly = [{ session: [] }];

export default function notificationPreferenceRoutes(app: App): void {
  app.get(
    '/api/me/notifications',
    {
      config: { scope: { access: 'read', project: 'none' } },
      schema: {
        tags,
        operationId: 'getNotificationPreferences',
        summary: 'What reaches the signed-in member: levels per project, an email copy, quiet hours and a snooze (a dashboard session only)',
        security: sessionOnly,
        response: { 200: NotificationPreferences, ...errors(401, 403) },
      },
    },
    async (request) => getPreferences({ ctx: request.ctx, input: undefined }),
  );

  app.put(
    '/api/me/notifications',
    {
      config: { scope: { access: 'write', project: 'none' } },
      schema: {
        tags,
        operationId: 'setNotificationPreferences',
        summary: "Replace the signed-in member's notification preferences; fields left out take their defaults (a dashboard session only)",
        security: sessionOnly,
        body: NotificationPreferencesBody,
        response: { 200: NotificationPreferences, ...errors(400, 401, 403) },
      },
    },
    async (request) => setPreferences({ ctx: request.ctx, input: request.body }),
  );
}
