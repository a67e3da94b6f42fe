import type { App } from '../http/app.ts';
import alertRoutes from './alerts/routes.ts';
import auditRoutes from './audit/routes.ts';
import chartRoutes from './charts/routes.ts';
import destinationRoutes from './destinations/routes.ts';
import digestRoutes from './digests/routes.ts';
import eventRoutes from './events/routes.ts';
import funnelRoutes from './funnels/routes.ts';
import groupRoutes from './groups/routes.ts';
import hookRoutes from './hooks/routes.ts';
import insightRoutes from './insights/routes.ts';
import profileRoutes from './profiles/routes.ts';
import keyRoutes from './keys/routes.ts';
import liveRoutes from './live/routes.ts';
import logSnagRoutes from './logsnag/routes.ts';
import oidcRoutes from './oidc/routes.ts';
import overviewRoutes from './overview/routes.ts';
import memberRoutes from './members/routes.ts';
import notificationPreferenceRoutes from './notificationPreferences/routes.ts';
import passwordResetRoutes from './passwordReset/routes.ts';
import projectRoutes from './projects/routes.ts';
import pushRoutes from './push/routes.ts';
import sessionRoutes from './sessions/routes.ts';
import transferRoutes from './transfer/routes.ts';

/** Every feature's HTTP routes, registered by buildApp in this order. */
export const featureRoutes: Array<(app: App) => void | Promise<void>> = [
  projectRoutes,
  overviewRoutes,
  eventRoutes,
  sessionRoutes,
  keyRoutes,
  liveRoutes,
  insightRoutes,
  chartRoutes,
  transferRoutes,
  hookRoutes,
  destinationRoutes,
  pushRoutes,
  logSnagRoutes,
  profileRoutes,
  memberRoutes,
  alertRoutes,
  passwordResetRoutes,
  digestRoutes,
  auditRoutes,
  oidcRoutes,
  funnelRoutes,
  groupRoutes,
  notificationPreferenceRoutes,
];
