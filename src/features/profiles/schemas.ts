import { Type } from '@sinclair/typebox';
import { MAX_SEARCH_LENGTH } from '../../lib/limits.ts';

const PropertyValue = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

/** An application's user (extensions.md "Users"); not a dashboard account. */
export const AppUser = Type.Object({
  userId: Type.String(),
  properties: Type.Record(Type.String(), PropertyValue),
  firstSeen: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastSeen: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  eventCount: Type.Integer(),
  lastActive: Type.Optional(
    Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'Only in a list sorted by lastActive: the newest stored event of the user (identify calls are not activity); null without one',
    }),
  ),
});

/** Types are checked by `identify` itself, so that every bad body gets the same clear 400. */
export const IdentifyBody = Type.Object({
  project: Type.Optional(Type.Unknown()),
  user_id: Type.Optional(Type.Unknown()),
  properties: Type.Optional(Type.Unknown()),
});
export const Ok = Type.Object({ ok: Type.Literal(true) });

export const ListUsersQuery = Type.Object({
  project: Type.Optional(Type.String()),
  search: Type.Optional(Type.String({ maxLength: MAX_SEARCH_LENGTH, description: `At most ${MAX_SEARCH_LENGTH} characters` })),
  sort: Type.Optional(
    Type.Union([Type.Literal('lastSeen'), Type.Literal('firstSeen'), Type.Literal('events'), Type.Literal('lastActive')], {
      description:
        'lastSeen (default): most recently seen first; firstSeen: newest users first; events: most events first; lastActive: newest event first (identify calls aside), each user with lastActive. Ties by userId descending; never-seen users last',
    }),
  ),
  group: Type.Optional(Type.String({ description: "A group's id: only its users, in the same order (an unknown group is 404)" })),
  cursor: Type.Optional(Type.String()),
  limit: Type.Optional(Type.String({ description: 'Integer; clamped to 1-100; default 50' })),
});
export const UserPage = Type.Object({ users: Type.Array(AppUser), nextCursor: Type.Union([Type.String(), Type.Null()]) });

export const UserParams = Type.Object({ userId: Type.String() });
export const GetUserQuery = Type.Object({ project: Type.Optional(Type.String()) });

export const UserActivity = Type.Object({
  days: Type.Array(
    Type.Object({
      day: Type.String({ format: 'date', description: "A calendar day of the installation's time zone (TZ), as the charts count days" }),
      count: Type.Integer({ description: "The user's events stored for that day" }),
    }),
    { description: 'The last 30 days, today included, oldest first; days without events count 0' },
  ),
});
