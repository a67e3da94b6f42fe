import type { Sql } from '../../db/client.ts';
import { deleteSubscription } from './queries.ts';

/** The push service said a subscription is gone (404 or 410; delivery/webPushChannel.ts): it and its queued pushes go. */
export function forgetGoneSubscription(sql: Sql, organizationId: string, subscriptionId: string): Promise<void> {
  return deleteSubscription(sql, organizationId, subscriptionId);
}
