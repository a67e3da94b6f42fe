/**
 * The dashboard's names for the JSON API's shapes. Each is an alias of a type generated from the
 * server's OpenAPI document (web/src/generated/, `npm run client:types`; lint fails while they are
 * stale), so a route schema that changes shows up here as a type error, not as a blank page.
 */
import type { GetAlertResponse, ListAlertHistoryResponse } from './generated/alerts.ts';
import type { CreateKeyResponse, ListKeysResponse } from './generated/apiKeys.ts';
import type { ListAuditResponse } from './generated/auditLog.ts';
import type { GetChartsResponse } from './generated/charts.ts';
import type { GetSessionResponse, GetSetupStatusResponse } from './generated/dashboardSession.ts';
import type { GetDigestResponse } from './generated/digests.ts';
import type { GetNotificationPreferencesResponse } from './generated/notificationPreferences.ts';
import type { GetEventResponse, ListCategoriesResponse, ListEventsResponse } from './generated/events.ts';
import type { ImportOrganizationResponse } from './generated/exportAndImport.ts';
import type { QueryFunnelResponse } from './generated/funnels.ts';
import type { ListHooksResponse } from './generated/incomingHooks.ts';
import type { ListInsightsResponse } from './generated/insights.ts';
import type {
  CreateInvitationResponse,
  GetOrganizationResponse,
  ListInvitationsResponse,
  ListMembersResponse,
  PreviewInvitationResponse,
} from './generated/members.ts';
import type { GetDestinationHealthResponse, ListDeliveriesResponse, ListDestinationsResponse, TestDestinationResponse } from './generated/outgoingWebhooks.ts';
import type { CreateProjectResponse, ListProjectsResponse, ProjectActivityResponse } from './generated/projects.ts';
import type { GetUserActivityResponse, GetUserResponse } from './generated/users.ts';

export type Session = GetSessionResponse;
/** How people sign in here: the password form, and the OpenID Connect button's name (null without OIDC). */
export type SignInMethods = GetSetupStatusResponse['signIn'];

export type Project = ListProjectsResponse[number];
export type CreatedProject = CreateProjectResponse;
export type ProjectActivity = ProjectActivityResponse[number];
export type FunnelResult = QueryFunnelResponse;

/** A person of the application, by `user_id` (not a dashboard account). */
export type AppUser = GetUserResponse;
export type UserActivity = GetUserActivityResponse;

export type EventItem = GetEventResponse;
export type EventPage = ListEventsResponse;
export type CategoryCount = ListCategoriesResponse[number];

export type Insight = ListInsightsResponse[number];
export type ChartSeries = GetChartsResponse;

export type ApiKey = ListKeysResponse[number];
export type CreatedKey = CreateKeyResponse;

export type AuditEntry = ListAuditResponse['entries'][number];

export type Hook = ListHooksResponse[number];

export type Destination = ListDestinationsResponse[number];
export type DestinationFormat = Destination['format'];
export type DestinationHealth = GetDestinationHealthResponse;
export type TestResult = TestDestinationResponse;
export type DeliveryPage = ListDeliveriesResponse;

export type ImportReport = ImportOrganizationResponse;

export type Alert = GetAlertResponse;
export type AlertHistoryPage = ListAlertHistoryResponse;

export type OrganizationInfo = GetOrganizationResponse;
export type Member = ListMembersResponse[number];
export type Role = Member['role'];
export type Invitation = CreateInvitationResponse;
export type PendingInvitation = ListInvitationsResponse[number];
export type InvitationPreview = PreviewInvitationResponse;

/**
 * What the live stream (GET /api/live, server-sent events) says about a write; the client fetches
 * the record itself. Written by hand: the stream is not JSON and not in the OpenAPI document.
 */
export interface LiveMessage {
  type: string;
  organizationId: string;
  projectId?: string;
  id?: number | string;
}

/** A member's digest choice (GET/PUT /api/me/digest). */
export type DigestSettings = GetDigestResponse;

import type { ListGroupsResponse } from './generated/groups.ts';
export type Group = ListGroupsResponse['groups'][number];

export type NotificationPreferences = GetNotificationPreferencesResponse;
export type QuietHours = NonNullable<NotificationPreferences['quietHours']>;
