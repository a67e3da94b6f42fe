import { Type } from '@sinclair/typebox';
import { MAX_SEARCH_LENGTH } from '../../lib/limits.ts';

const PropertyValue = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

/** A group (account) of the application's users (extensions.md "Groups (accounts)"). */
export const Group = Type.Object({
  id: Type.String(),
  project: Type.String(),
  properties: Type.Record(Type.String(), PropertyValue),
  users: Type.Integer({ description: 'How many users belong to the group' }),
  firstSeenAt: Type.String({ format: 'date-time', description: 'When the group was first recorded' }),
  lastSeenAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'The newest event of any of its users; null while they have none',
  }),
});

const GroupWithUsers = Type.Object({
  ...Group.properties,
  userIds: Type.Array(Type.String(), { description: "Its users' ids, at most 1,000, in id order" }),
});

/** Types are checked by the verb itself, so that every bad body gets the same clear 400. */
export const GroupBody = Type.Object({
  project: Type.Optional(Type.Unknown()),
  group_id: Type.Optional(Type.Unknown()),
  user_id: Type.Optional(Type.Unknown()),
  properties: Type.Optional(Type.Unknown()),
});

export const GroupReply = Type.Object({ group: Group });
export const GroupDetail = Type.Object({ group: GroupWithUsers });

export const ListGroupsQuery = Type.Object({
  project: Type.Optional(Type.String()),
  search: Type.Optional(Type.String({ maxLength: MAX_SEARCH_LENGTH, description: `At most ${MAX_SEARCH_LENGTH} characters` })),
  sort: Type.Optional(
    Type.Union([Type.Literal('lastSeen'), Type.Literal('users'), Type.Literal('name')], {
      description:
        'lastSeen (default): newest lastSeenAt first, groups without events last; users: most users first; name: by the `name` property (else the id), A to Z, case-insensitive. Ties by id',
    }),
  ),
  cursor: Type.Optional(Type.String()),
  limit: Type.Optional(Type.String({ description: 'Integer; clamped to 1-100; default 50' })),
});
export const GroupPage = Type.Object({ groups: Type.Array(Group), nextCursor: Type.Union([Type.String(), Type.Null()]) });

export const GroupParams = Type.Object({ groupId: Type.String() });
export const UserGroupsParams = Type.Object({ userId: Type.String() });
export const ProjectQuery = Type.Object({ project: Type.Optional(Type.String()) });
export const UserGroups = Type.Object({ groups: Type.Array(Group, { description: "The user's groups (at most 1,000), by id" }) });

/** A group in the export document (extensions.md "Groups (accounts)": export and import carry them). */
export const TransferGroup = Type.Object({
  id: Type.String(),
  properties: Type.Optional(Type.Union([Type.Record(Type.String(), Type.Union([PropertyValue, Type.Null()])), Type.Null()])),
  firstSeenAt: Type.Optional(Type.Union([Type.String({ description: 'ISO 8601; absent means the time of the import' }), Type.Null()])),
  users: Type.Optional(Type.Array(Type.String(), { description: "Its users' ids" })),
});
