/**
 * Every announcement a write makes on the bus (db/bus.ts): its type and what it carries. The
 * one list; publishers and subscribers use these types, and the dashboard's list of live
 * message types is checked against it (test/web/announcements.test.ts).
 */

/** Announced when an API key is revoked: every process evicts the key and closes its live streams. */
export const KEY_REVOKED = 'key.revoked';

/** Announced when a member is removed: every process closes the live streams of their sessions. */
export const MEMBER_REMOVED = 'member.removed';

/** Announced when a project is deleted: live feeds of it end, and caches forget it in every process. */
export const PROJECT_DELETED = 'project.deleted';

/** Changes to one record of a project, relayed to that project's live feed. */
const RECORD_ANNOUNCEMENTS = [
  'event.created',
  'event.deleted',
  'event.favorited',
  'insight.upserted',
  'insight.deleted',
  'hook.created',
  'hook.updated',
  'hook.deleted',
  'destination.created',
  'destination.updated',
  'destination.deleted',
] as const;

/** Changes to a project as a whole, relayed to that project's live feed. */
const PROJECT_ANNOUNCEMENTS = ['project.created', 'import.completed'] as const;

/** What the live feed sends a dashboard (besides its own `message` keep-alives). */
export const LIVE_ANNOUNCEMENTS = [...RECORD_ANNOUNCEMENTS, ...PROJECT_ANNOUNCEMENTS] as const;

type RecordAnnouncementType = (typeof RECORD_ANNOUNCEMENTS)[number];

/** Small on purpose: NOTIFY payloads are capped at 8000 bytes. */
export type Announcement =
  | {
      type: 'event.created';
      organizationId: string;
      projectId: string;
      id: number;
      /** The event asked for notifications (outgoing webhooks, push). */
      notify?: boolean;
    }
  | { type: Exclude<RecordAnnouncementType, 'event.created'>; organizationId: string; projectId: string; id: number | string }
  | { type: (typeof PROJECT_ANNOUNCEMENTS)[number]; organizationId: string; projectId: string; id?: undefined }
  | { type: typeof PROJECT_DELETED; organizationId: string; projectId: string; id?: undefined }
  | { type: typeof KEY_REVOKED; organizationId: string; id: string; projectId?: undefined }
  | { type: typeof MEMBER_REMOVED; organizationId: string; id: string; projectId?: undefined };
