import type { EventDraft } from '../../ports.ts';
import { conditionInWords } from './conditionWords.ts';
import type { AlertRow } from './queries.ts';

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
    title: firing ? `Alert firing: ${alert.name}` : `Alert resolved: ${alert.name}`,
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
