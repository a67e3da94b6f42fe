/** Shapes of the JSON API the dashboard reads. */

interface User {
  id: string;
  email: string;
}

interface Organization {
  id: string;
  name: string;
}

export interface Session {
  user: User;
  organization: Organization;
  csrfToken: string;
}

export interface Project {
  id: string;
  organizationId: string;
  name: string;
  retentionDays?: number | null;
  createdAt: string;
}

/** A person of the application, by `user_id` (not a dashboard account). */
export interface AppUser {
  userId: string;
  properties: Record<string, string | number | boolean | null>;
  firstSeen: string | null;
  lastSeen: string | null;
  eventCount: number;
}

export interface EventItem {
  id: number;
  projectId: string;
  category: string;
  title: string;
  description: string | null;
  icon: string | null;
  tags: Record<string, unknown> | null;
  metadata: unknown;
  url: string | null;
  user_id: string | null;
  notify: boolean;
  favorited: boolean;
  createdAt: string;
}

export interface EventPage {
  events: EventItem[];
  nextCursor: string | null;
}

export interface CategoryCount {
  name: string;
  count: number;
}

export interface Insight {
  id: number;
  projectId: string;
  title: string;
  value: string;
  icon: string | null;
  updatedAt: string;
}

export type ChartSeries = Record<string, Array<{ day: string; count: number }>>;

export interface ApiKey {
  id: string;
  name: string | null;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface CreatedKey {
  id: string;
  name: string | null;
  key: string;
  prefix: string;
}

export interface Hook {
  id: string;
  projectId: string;
  name: string;
  category: string;
  enabled: boolean;
  /** github, grafana or alertmanager: bodies are read as that service's webhook payload. */
  template: string | null;
  url: string;
  createdAt: string;
}

export type DestinationFormat = 'json' | 'text' | 'embed';

interface DeliveryStatus {
  ok: boolean;
  at: string;
  status: number | null;
  error: string | null;
}

export interface Destination {
  id: string;
  projectId: string;
  name: string;
  url: string;
  format: DestinationFormat;
  enabled: boolean;
  secret: string | null;
  lastStatus: DeliveryStatus | null;
  /** null: every notify event; otherwise only these categories. */
  categories: string[] | null;
  /** Why it was disabled automatically (after consecutive failed deliveries). */
  disabledReason: string | null;
  createdAt: string;
}

export interface DestinationHealth {
  window: number;
  deliveries: number;
  succeeded: number;
  successRate: number | null;
}

export interface TestResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

interface DeliveryAttempt {
  at: string;
  status: number | null;
  durationMs: number | null;
  error: string | null;
  /** The start of the receiver's answer, when the server keeps it. */
  response?: string | null;
}

interface Delivery {
  id: string;
  /** 0 for a Test delivery. */
  eventId: number;
  webhookId?: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: DeliveryAttempt[];
  createdAt: string;
}

export interface DeliveryPage {
  deliveries: Delivery[];
  nextCursor: string | null;
}

export interface ImportReport {
  imported: { projects: number; events: number; insights: number };
  idMap: Record<string, string>;
}

/** What the live stream says about a write; the client fetches the record itself. */
export interface LiveMessage {
  type: string;
  organizationId: string;
  projectId?: string;
  id?: number | string;
}

export type Role = 'owner' | 'member';

export interface OrganizationInfo {
  id: string;
  name: string;
  monthlyEventCap: number | null;
  usage: { month: string; events: number };
  /** The caller's role. */
  role: Role | null;
}

export interface Member {
  id: string;
  email: string;
  role: Role;
  createdAt: string;
}

export interface Invitation {
  id: string;
  email: string;
  role: Role;
  url: string;
  expiresAt: string;
}
