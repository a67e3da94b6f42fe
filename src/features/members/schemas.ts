import { Type } from '@sinclair/typebox';

const Role = Type.Union([Type.Literal('owner'), Type.Literal('member')], {
  description: 'owner: everything; member: everything except API keys, members and invitations, and deleting projects',
});

export const Member = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Role,
  createdAt: Type.String({ format: 'date-time' }),
});

export const MemberIdParams = Type.Object({ memberId: Type.String({ maxLength: 100 }) });

export const RoleBody = Type.Object({ role: Role });

export const InvitationBody = Type.Object({ email: Type.String({ maxLength: 320 }), role: Role });

export const Invitation = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Role,
  url: Type.String({ description: "Opens the dashboard's accept page; its last path segment is the token. Valid 7 days, once." }),
  expiresAt: Type.String({ format: 'date-time' }),
  emailed: Type.Boolean({ description: 'Whether the link was also mailed to the address (false without email configured, or when sending failed)' }),
});

export const AcceptBody = Type.Object({
  token: Type.String({ maxLength: 200, description: 'The last path segment of the invitation url' }),
  password: Type.String({ maxLength: 1024 }),
});

export const RemovedMember = Type.Object({ id: Type.String(), deleted: Type.Literal(true) });

export const Organization = Type.Object({
  id: Type.String(),
  name: Type.String(),
  monthlyEventCap: Type.Union([Type.Integer(), Type.Null()], { description: 'null: no cap' }),
  usage: Type.Object({
    month: Type.String({ description: 'The calendar month in UTC, YYYY-MM' }),
    events: Type.Integer({ description: 'Events created this month, as the monthly cap counts them' }),
  }),
  role: Type.Union([Role, Type.Null()], { description: "The caller's role in the organization; null for an API key" }),
});

export const InvitationIdParams = Type.Object({ invitationId: Type.String({ maxLength: 100 }) });

export const PendingInvitation = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: Role,
  createdAt: Type.String({ format: 'date-time', description: 'When the current link was made' }),
  expiresAt: Type.String({ format: 'date-time', description: 'When the current link stops working; may be past' }),
});

export const RevokedInvitation = Type.Object({ id: Type.String(), revoked: Type.Literal(true) });

export const PreviewBody = Type.Object({
  token: Type.String({ maxLength: 200, description: 'The last path segment of the invitation url' }),
});

export const InvitationPreview = Type.Object({
  organization: Type.String({ description: 'The name of the organization the link joins' }),
  email: Type.String({ description: 'The email the account will have' }),
  role: Role,
  expiresAt: Type.String({ format: 'date-time' }),
});
