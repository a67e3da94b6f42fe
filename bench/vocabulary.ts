/**
 * The words the data set and the request bodies are made of, shared by the SQL loader and the
 * body generator so that loaded and ingested events look alike.
 */

/** 20 categories; the loader gives the first ones more events than the last (a skewed log). */
export const CATEGORIES = [
  'signups',
  'logins',
  'payments',
  'subscriptions',
  'orders',
  'errors',
  'deploys',
  'builds',
  'alerts',
  'invites',
  'emails',
  'uploads',
  'exports',
  'imports',
  'webhooks',
  'comments',
  'refunds',
  'shipments',
  'reviews',
  'cron',
] as const;

/** The category the filtered measurements use: about 5% of the events. */
export const FILTER_CATEGORY = 'errors';

export const ICONS = ['🎉', '🔑', '💰', '🔁', '🛒', '🔥', '🚀', '🔨', '🚨', '✉️', '📧', '📎', '📤', '📥', '🪝', '💬', '↩️', '📦', '⭐', '⏰'];

/** `%1$s` is a name, `%2$s` a number: one template per category. */
export const TITLE_TEMPLATES = [
  'New signup: %1$s (#%2$s)',
  'Login from %1$s on a new device',
  'Payment of $%2$s received from %1$s',
  'Subscription upgraded to Pro by %1$s',
  'Order #%2$s placed by %1$s',
  'TypeError in checkout for %1$s (#%2$s)',
  'Deploy #%2$s to production succeeded',
  'Build #%2$s finished in 3m %1$s',
  'CPU above 90%% on worker-%2$s',
  '%1$s invited a teammate',
  'Welcome email delivered to %1$s',
  '%1$s uploaded report-%2$s.pdf',
  'Export #%2$s ready for %1$s',
  'Import #%2$s completed for %1$s',
  'Webhook #%2$s delivered to Slack',
  'New comment from %1$s on ticket #%2$s',
  'Refund of $%2$s issued to %1$s',
  'Shipment #%2$s handed to carrier',
  '%1$s left a 5-star review',
  'Nightly cleanup job #%2$s done',
];

/** Descriptions with the spec's markup. Every one mentions a user: the common search term. */
export const DESCRIPTION_TEMPLATES = [
  'Triggered by user **%1$s** from the [dashboard](https://app.example.com/users/%2$s). Everything went as expected.',
  'The user **%1$s** completed the flow in %2$s ms; see the [session](https://app.example.com/sessions/%2$s).',
  'Automatic action on behalf of user %1$s after request %2$s. No manual step was needed.',
  'User %1$s (account %2$s) did this through the public API with a personal token.',
  'Recorded for user **%1$s**. Retry count: 0. Region: eu-west-1. Reference %2$s.',
  'A background worker handled this for user %1$s; [details](https://status.example.com/jobs/%2$s).',
];

/** The word the common-term search looks for: it is in about nine events out of ten. */
export const COMMON_TERM = 'user';
/** Planted in exactly ten events of the data set, and nowhere else. */
export const RARE_TERM = 'xylophonequasar';

export const NAMES = [
  'maria',
  'joao',
  'ana',
  'liam',
  'olivia',
  'noah',
  'emma',
  'mateo',
  'sofia',
  'lucas',
  'mia',
  'hugo',
  'chloe',
  'arjun',
  'priya',
  'kenji',
  'yuki',
  'fatima',
  'omar',
  'lena',
  'jonas',
  'elena',
  'marco',
  'giulia',
  'pierre',
  'camille',
  'sven',
  'astrid',
  'diego',
  'valentina',
  'wei',
  'mei',
  'ivan',
  'olga',
  'kwame',
  'amara',
  'sean',
  'aoife',
  'tomas',
  'zofia',
  'emre',
  'elif',
  'david',
  'sarah',
  'ben',
  'leah',
  'raj',
  'anika',
  'felix',
  'clara',
  'nils',
  'ines',
  'paulo',
  'beatriz',
  'juan',
  'lucia',
  'ali',
  'zara',
  'max',
  'ida',
];

export const PLANS = ['free', 'starter', 'pro', 'enterprise'];
export const REGIONS = ['eu-west-1', 'us-east-1', 'ap-south-1', 'sa-east-1'];
export const CHANNELS = ['web', 'ios', 'android', 'api'];

const FRAMES = [
  'handler (/srv/app/src/routes/checkout.js:%d:17)',
  'processTicksAndRejections (node:internal/process/task_queues:95:5)',
  'async Promise.all (index 0)',
  'validateCart (/srv/app/src/cart/validate.js:%d:11)',
  'Layer.handle [as handle_request] (/srv/app/node_modules/express/lib/router/layer.js:95:5)',
  'next (/srv/app/node_modules/express/lib/router/route.js:149:13)',
  'Route.dispatch (/srv/app/node_modules/express/lib/router/route.js:119:3)',
  'priceFor (/srv/app/src/pricing/index.js:%d:23)',
  'Object.charge (/srv/app/src/payments/stripe.js:%d:9)',
  'runMicrotasks (<anonymous>)',
  'async Queue.run (/srv/app/src/jobs/queue.js:%d:7)',
  'loadUser (/srv/app/src/users/load.js:%d:15)',
];

/** A deterministic 32-bit generator: the same seed gives the same events on every run. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** About 2 KB of JSON: an error report with a stack trace and the failed request. */
export function largeMetadata(random: () => number, reference: number): Record<string, unknown> {
  const stack = ["TypeError: Cannot read properties of undefined (reading 'price')"];
  while (stack.join('\n').length < 1700) stack.push(`    at ${pick(random, FRAMES).replace('%d', String(10 + Math.floor(random() * 400)))}`);
  return {
    error: { type: 'TypeError', message: "Cannot read properties of undefined (reading 'price')", stack: stack.join('\n') },
    request: { method: 'POST', path: `/api/orders/${reference}`, status: 500, durationMs: Math.floor(random() * 900) },
    release: `v2.${Math.floor(random() * 40)}.${Math.floor(random() * 10)}`,
  };
}

/** A hundred-odd bytes of context, as most instrumented apps attach. */
export function smallMetadata(random: () => number, reference: number): Record<string, unknown> {
  return {
    ip: `203.0.113.${Math.floor(random() * 250)}`,
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 Safari/605.1.15',
    durationMs: Math.floor(random() * 900),
    requestId: `req_${reference}`,
  };
}

/** printf-style `%1$s`/`%2$s` and `%%`, as PostgreSQL's format() reads the same templates. */
export function fill(template: string, name: string, number: number): string {
  return template.replace(/%1\$s|%2\$s|%%/g, (token) => (token === '%1$s' ? name : token === '%2$s' ? String(number) : '%'));
}
