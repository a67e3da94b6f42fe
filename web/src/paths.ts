/** Where the server mounts the dashboard; vite.config.ts `base` says the same. */
export const APP_BASE = '/app';

/** A link that leaves a nested router (the project pages) for a top-level dashboard page. */
export const appPath = (path: string) => `~${APP_BASE}${path}`;
