import type { VerbArgs } from '../../context.ts';
import type { Announcement } from '../../db/bus.ts';
import { KEY_REVOKED, MEMBER_REMOVED, PROJECT_DELETED } from '../../db/announcements.ts';
import { requireProject } from '../projects/requireProject.ts';
import { sessionIsActive } from '../sessions/sessionIsActive.ts';

interface LiveFeedListener {
  announcement(announcement: Announcement): void;
  /** The credential that opened the feed was revoked, or the project deleted: the stream must end now. */
  revoked(): void;
}

interface LiveFeed {
  subscribe(listener: LiveFeedListener): () => void;
  /** Asked now and then by the stream: false once a session behind it has ended or expired. */
  stillAllowed(): Promise<boolean>;
}

/**
 * GET /api/live: the announcements of one of the caller's projects, from every server process
 * (the bus relays PostgreSQL NOTIFY). The project is checked here, before any stream starts,
 * so another organization's project is an ordinary 404.
 */
export async function openLiveFeed({ ctx, input }: VerbArgs<{ projectId: string }>): Promise<LiveFeed> {
  const project = await requireProject(ctx, input.projectId);
  const { actor, organizationId, services } = ctx;
  return {
    subscribe: (listener) =>
      services.bus.subscribe((announcement) => {
        if (announcement.type === PROJECT_DELETED && announcement.organizationId === organizationId && announcement.projectId === project.id) {
          listener.revoked();
        } else if (announcement.organizationId === organizationId && announcement.projectId === project.id) {
          listener.announcement(announcement);
        } else if (announcement.type === KEY_REVOKED && actor.kind === 'key' && String(announcement.id) === actor.keyId) {
          listener.revoked();
        } else if (
          announcement.type === MEMBER_REMOVED &&
          actor.kind === 'user' &&
          announcement.organizationId === organizationId &&
          String(announcement.id) === actor.userId
        ) {
          listener.revoked();
        }
      }),
    stillAllowed: async () => actor.kind !== 'user' || sessionIsActive({ ctx, input: { sessionId: actor.sessionId } }),
  };
}
