import type { App } from '../../http/app.ts';
import type { Announcement } from '../../db/bus.ts';
import { EventStream } from './eventStream.ts';
import { openLiveFeed } from './openLiveFeed.ts';
import { LiveQuery } from './schemas.ts';
import { projectIn } from '../../http/routeScope.ts';

/** Keeps proxies and browsers from dropping a quiet stream, and paces the session re-check. */
const HEARTBEAT_MS = 20_000;

export default function liveRoutes(app: App): void {
  const open = new Set<EventStream>();
  // Open streams never finish by themselves: end them so a graceful stop is not held up.
  app.addHook('preClose', (done) => {
    for (const stream of open) stream.close();
    done();
  });

  app.get(
    '/api/live',
    { config: { scope: { access: 'read', project: projectIn('query') } }, schema: { hide: true, querystring: LiveQuery } },
    async (request, reply) => {
      const feed = await openLiveFeed({ ctx: request.ctx, input: { projectId: request.query.project } });
      // HEAD (monitors, link checkers) gets the stream's headers at once and no stream to wait on.
      if (request.method === 'HEAD') {
        return reply.header('cache-control', 'no-cache, no-transform').type('text/event-stream; charset=utf-8').send('');
      }
      const stream = new EventStream(reply);
      open.add(stream);
      const unsubscribe = feed.subscribe({
        announcement: (announcement: Announcement) => stream.send(announcement.type, announcement),
        revoked: () => stream.close(),
      });
      const heartbeat = setInterval(() => {
        feed.stillAllowed().then(
          (allowed) => (allowed ? stream.comment('ping') : stream.close()),
          (error: unknown) => {
            request.log.warn({ err: error }, 'live feed: re-checking the session failed');
            stream.comment('ping');
          },
        );
      }, HEARTBEAT_MS);
      heartbeat.unref();
      stream.onClose(() => {
        clearInterval(heartbeat);
        unsubscribe();
        open.delete(stream);
      });
    },
  );
}
