import type { EventDraft } from '../../ports.ts';
import { conditionInWords } from './conditionWords.ts';
import type { AlertRow } from './queries.ts';

const TITLE_PREFIX = { firing: 'Alert firing: ', resolved: 'Alert resolved: ' } as const;

/**
 * The alert's name and state as a transition's event says them (its title as written below), for
 * messages that name the alert as of the event; null for a title that is not one.
 */
export function alertOfEventTitle(title: string): { name: string; state: 'firing' | 'resolved' } | null {
  for (const state of ['firing', 'resolved'] as const) {
    if (title.startsWith(TITLE_PREFIX[state])) return { name: title.slice(TITLE_PREFIX[state].length), state };
  }
  return null;
}

/**
 * The event a transition (or a renotification) creates: an ordinary notify event in the
 * alert's project, marked with the alert's id so that no alert ever counts it.
 */
export function alertEventDraft(alert: AlertRow, kind: 'firing' | 'resolved', count: number): EventDraft {
  const condition = conditionInWords(alert);
  const firing = kind === 'firing';
  return {
    projectId: alert.projectId,
    category: alert.category,
    title: `${TITLE_PREFIX[kind]}${alert.name}`,
    description: firing ? `${condition}: ${count} counted` : `No longer ${condition}: ${count} counted`,
    icon: firing ? '🚨' : '✅',
    tags: JSON.stringify({ alert: alert.id, state: kind }),
    metadata: JSON.stringify({ count, condition: { count: alert.countMode, threshold: alert.threshold, windowSeconds: alert.windowSeconds } }),
    url: null,
    userId: null,
    notify: true,
    createdAtMicros: null,
    alertId: alert.id,
  };
}
