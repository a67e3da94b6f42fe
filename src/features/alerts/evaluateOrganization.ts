import type { Sql } from '../../db/client.ts';
import { randomAlphanumeric } from '../../lib/ids.ts';
import { type AlertOutcome, evaluateAlert } from './evaluateAlert.ts';
import { changedSince, claimOrganization, enabledAlerts, releaseOrganization } from './engineQueries.ts';
import type { AlertRow } from './queries.ts';

/** How long a claimed organization stays this process's; a crashed process's claim ends with it. */
const LEASE_MS = 30_000;
/** New events beyond this many since the last look: every alert is counted rather than the events read. */
const MAX_CHANGE_SCAN = 5_000;
/** After a failed evaluation, the organization is due again this soon. */
const RETRY_MS = 5_000;

interface OrganizationPass {
  /** Whether the organization still has enabled alerts (otherwise the engine stops watching it). */
  active: boolean;
  /** When one of its alerts is next due without new events; null: only when events arrive. */
  dueAt: Date | null;
  outcomes: Array<{ alert: AlertRow; outcome: AlertOutcome; lagSeconds: number | null }>;
}

type Reason = { kind: 'due'; since: Date } | { kind: 'events'; since: Date | null };

/** Which of the alerts need counting, and since when they have been due (for the lag metric). */
function reasons(alerts: AlertRow[], changes: Array<{ projectId: string; category: string; oldest: Date }> | 'all', now: Date): Map<AlertRow, Reason> {
  const chosen = new Map<AlertRow, Reason>();
  for (const alert of alerts) {
    if (alert.count === null || (alert.nextDueAt !== null && alert.nextDueAt <= now)) {
      chosen.set(alert, { kind: 'due', since: alert.nextDueAt ?? now });
      continue;
    }
    if (changes === 'all') {
      chosen.set(alert, { kind: 'events', since: null });
      continue;
    }
    const relevant = changes.filter((c) => c.projectId === alert.projectId && (alert.filter.category === undefined || alert.filter.category === c.category));
    if (relevant.length > 0) chosen.set(alert, { kind: 'events', since: new Date(Math.min(...relevant.map((c) => c.oldest.getTime()))) });
  }
  return chosen;
}

/**
 * One organization's pass: claimed by lease on its schedule row (so one process at a time),
 * every alert that is due or that new events may have moved is counted, and the row is handed
 * back with the next due time. Undefined when another process holds the organization.
 */
export async function evaluateOrganization(sql: Sql, organizationId: string, timeZone: string): Promise<OrganizationPass | undefined> {
  const now = new Date();
  const leaseEnd = new Date(now.getTime() + LEASE_MS);
  const token = randomAlphanumeric(16);
  const claim = await claimOrganization(sql, organizationId, { now, until: leaseEnd, token });
  if (!claim) return undefined;
  try {
    const alerts = await enabledAlerts(sql, organizationId);
    const changes =
      claim.lastEventId <= claim.seenEventId
        ? []
        : claim.lastEventId - claim.seenEventId > MAX_CHANGE_SCAN
          ? ('all' as const)
          : await changedSince(sql, organizationId, { after: claim.seenEventId, through: claim.lastEventId });
    const pass: OrganizationPass = { active: alerts.length > 0, dueAt: null, outcomes: [] };
    let dueAt: number | null = null;
    const chosen = reasons(alerts, changes, now);
    for (const alert of alerts) {
      const reason = chosen.get(alert);
      let next = alert.nextDueAt;
      if (reason) {
        const evaluatedAt = new Date();
        const outcome = await evaluateAlert(sql, organizationId, alert, evaluatedAt, timeZone);
        const since = reason.since && reason.since.getTime() > now.getTime() - 3_600_000 ? reason.since : null;
        pass.outcomes.push({ alert, outcome, lagSeconds: since ? (evaluatedAt.getTime() - since.getTime()) / 1000 : null });
        next = outcome.nextDueAt;
      }
      if (next) dueAt = Math.min(dueAt ?? Infinity, next.getTime());
    }
    pass.dueAt = dueAt === null ? null : new Date(dueAt);
    await releaseOrganization(sql, organizationId, {
      token,
      leaseEnd,
      seenEventId: claim.lastEventId,
      dueAt: dueAt === null ? null : new Date(dueAt),
      active: pass.active,
    });
    return pass;
  } catch (error) {
    const retryAt = new Date(Date.now() + RETRY_MS);
    await releaseOrganization(sql, organizationId, { token, leaseEnd, seenEventId: claim.seenEventId, dueAt: retryAt, active: true }).catch(() => {});
    throw error;
  }
}
