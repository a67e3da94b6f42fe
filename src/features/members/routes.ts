import { Type } from '@sinclair/typebox';
import { VISITOR } from '../../context.ts';
import type { App } from '../../http/app.ts';
import { requireOwner } from '../../http/auth.ts';
import { errors } from '../../http/schemas.ts';
import { setSessionCookie } from '../sessions/cookie.ts';
import { SessionInfo } from '../sessions/schemas.ts';
import { acceptInvitation } from './acceptInvitation.ts';
import { changeRole } from './changeRole.ts';
import { describeOrganization } from './describeOrganization.ts';
import { inviteMember } from './inviteMember.ts';
import { listInvitations } from './listInvitations.ts';
import { listMembers } from './listMembers.ts';
import { previewInvitation } from './previewInvitation.ts';
import { removeMember } from './removeMember.ts';
import { resendInvitation } from './resendInvitation.ts';
import { revokeInvitation } from './revokeInvitation.ts';
import {
  AcceptBody,
  Invitation,
  InvitationBody,
  InvitationIdParams,
  InvitationPreview,
  Member,
  MemberIdParams,
  Organization,
  PendingInvitation,
  PreviewBody,
  RemovedMember,
  RevokedInvitation,
  RoleBody,
} from './schemas.ts';

const tags = ['members'];
const ownerSession = [{ session: [] }];
const ACTION = 'Managing members and invitations';
// Invitation links and session CSRF tokens: never kept by a cache on the way.
const NO_STORE = 'no-store';

export default function memberRoutes(app: App): void {
  const { services } = app;

  app.get(
    '/api/organization',
    {
      config: { scope: { access: 'read', project: 'none' } },
      schema: {
        tags,
        summary: "The caller's organization and this month's events against its monthly cap",
        operationId: 'getOrganization',
        response: { 200: Organization, ...errors(401) },
      },
    },
    async (request) => describeOrganization({ ctx: request.ctx, input: undefined }),
  );

  app.get(
    '/api/members',
    {
      config: { scope: { access: 'read', project: 'organization' } },
      schema: {
        tags,
        summary: 'List the people who can sign in to this organization (owners only)',
        operationId: 'listMembers',
        security: ownerSession,
        response: { 200: Type.Array(Member), ...errors(401, 403) },
      },
    },
    async (request) => {
      requireOwner(request.ctx, ACTION);
      return listMembers({ ctx: request.ctx, input: undefined });
    },
  );

  app.post(
    '/api/invitations',
    {
      config: { scope: { access: 'write', project: 'organization' } },
      schema: {
        tags,
        summary: 'Invite a person by email with a role; the link is valid 7 days, once (owners only)',
        operationId: 'createInvitation',
        security: ownerSession,
        body: InvitationBody,
        response: { 201: Invitation, ...errors(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      requireOwner(request.ctx, ACTION);
      const invitation = await inviteMember({ ctx: request.ctx, input: request.body });
      return reply.status(201).header('cache-control', NO_STORE).send(invitation);
    },
  );

  app.get(
    '/api/invitations',
    {
      config: { scope: { access: 'read', project: 'organization' } },
      schema: {
        tags,
        summary: 'List the invitations not yet accepted or revoked, newest first, expired ones too (owners only)',
        operationId: 'listInvitations',
        security: ownerSession,
        response: { 200: Type.Array(PendingInvitation), ...errors(401, 403) },
      },
    },
    async (request) => {
      requireOwner(request.ctx, ACTION);
      return listInvitations({ ctx: request.ctx, input: undefined });
    },
  );

  app.post(
    '/api/invitations/:invitationId/revoke',
    {
      config: { scope: { access: 'write', project: 'organization' } },
      schema: {
        tags,
        summary: 'Revoke an invitation: its link stops working at once (owners only)',
        operationId: 'revokeInvitation',
        security: ownerSession,
        params: InvitationIdParams,
        response: { 200: RevokedInvitation, ...errors(401, 403, 404) },
      },
    },
    async (request) => {
      requireOwner(request.ctx, ACTION);
      return revokeInvitation({ ctx: request.ctx, input: request.params });
    },
  );

  app.post(
    '/api/invitations/:invitationId/resend',
    {
      config: { scope: { access: 'write', project: 'organization' } },
      schema: {
        tags,
        summary: 'A new link for an invitation, valid 7 days from now; the old link stops working (owners only)',
        operationId: 'resendInvitation',
        security: ownerSession,
        params: InvitationIdParams,
        response: { 200: Invitation, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      requireOwner(request.ctx, ACTION);
      const invitation = await resendInvitation({ ctx: request.ctx, input: request.params });
      return reply.header('cache-control', NO_STORE).send(invitation);
    },
  );

  app.post(
    '/api/invitations/preview',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "What an invitation link joins: the organization's name, the email and the role; changes nothing (takes no credential)",
        operationId: 'previewInvitation',
        security: [],
        body: PreviewBody,
        response: { 200: InvitationPreview, ...errors(400) },
      },
    },
    async (request, reply) => {
      const preview = await previewInvitation({ ctx: { services, actor: VISITOR }, input: request.body });
      return reply.header('cache-control', NO_STORE).send(preview);
    },
  );

  app.post(
    '/api/invitations/accept',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Accept an invitation: set a password and sign in (takes no credential)',
        operationId: 'acceptInvitation',
        security: [],
        body: AcceptBody,
        response: { 200: SessionInfo, ...errors(400, 409) },
      },
    },
    async (request, reply) => {
      const opened = await acceptInvitation({ ctx: { services, actor: VISITOR, ip: request.ip }, input: request.body });
      setSessionCookie(reply, services.config, opened.token);
      return reply.header('cache-control', NO_STORE).send(opened.info);
    },
  );

  app.post(
    '/api/members/:memberId/role',
    {
      config: { scope: { access: 'write', project: 'organization' } },
      schema: {
        tags,
        summary: "Change a member's role; applies to their open sessions at once (owners only)",
        operationId: 'changeMemberRole',
        security: ownerSession,
        params: MemberIdParams,
        body: RoleBody,
        response: { 200: Member, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      requireOwner(request.ctx, ACTION);
      return changeRole({ ctx: request.ctx, input: { ...request.params, ...request.body } });
    },
  );

  app.post(
    '/api/members/:memberId/delete',
    {
      config: { scope: { access: 'write', project: 'organization' } },
      schema: {
        tags,
        summary: 'Remove a member: deletes the account and ends its sessions at once (owners only)',
        operationId: 'removeMember',
        security: ownerSession,
        params: MemberIdParams,
        response: { 200: RemovedMember, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      requireOwner(request.ctx, ACTION);
      return removeMember({ ctx: request.ctx, input: request.params });
    },
  );
}
