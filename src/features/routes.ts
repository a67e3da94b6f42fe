import type { App } from '../app.ts';
import eventRoutes from './events/routes.ts';
import projectRoutes from './projects/routes.ts';

/** Every feature's HTTP routes, registered by buildApp in this order. */
export const featureRoutes: Array<(app: App) => Promise<void>> = [projectRoutes, eventRoutes];
