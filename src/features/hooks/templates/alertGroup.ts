import { type Json, type TemplateFields, clip, isObject, obj, str, unreadable } from './templateFields.ts';

/**
 * Grafana's webhook contact point and Prometheus Alertmanager's webhook_config send the same
 * notification: a group of alerts with a group status, common labels and annotations, and per
 * alert its status, labels, annotations and a link to the rule (generatorURL). One event per
 * notification: the title names the group's status and common alert name (or the first alert's),
 * a firing group notifies.
 */
export function alertGroupEvent(template: 'grafana' | 'alertmanager', payload: Json, extraLinks: (alert: Json) => string | undefined): TemplateFields {
  const alerts = payload.alerts;
  if (!Array.isArray(alerts) || alerts.length === 0 || !alerts.every(isObject)) {
    throw unreadable(template, 'expected an "alerts" array of alert objects');
  }
  const firing = alerts.filter((alert) => alert.status === 'firing');
  const status = firing.length > 0 ? 'firing' : (str(payload.status) ?? str(alerts[0]?.status) ?? 'resolved');
  const commonLabels = stringMap(payload.commonLabels);
  const first = alerts[0] as Json;
  const name = commonLabels.alertname ?? stringMap(first.labels).alertname ?? str(payload.receiver) ?? 'alert';

  const counts = status === 'firing' && alerts.length > 1 ? ` (${firing.length} of ${alerts.length} firing)` : '';
  const title = `${status === 'firing' ? 'Firing' : capitalise(status)}: ${name}${counts}`;

  const lines = alerts.slice(0, 10).map((alert) => {
    const annotations = stringMap(alert.annotations);
    const labels = Object.entries(stringMap(alert.labels))
      .filter(([key]) => key !== 'alertname')
      .map(([key, value]) => `${key}=${value}`)
      .join(', ');
    const summary = annotations.summary ?? annotations.description ?? annotations.message ?? '';
    return `- [${str(alert.status) ?? status}] ${stringMap(alert.labels).alertname ?? name}${labels ? ` (${labels})` : ''}${summary ? `: ${summary}` : ''}`;
  });
  if (alerts.length > 10) lines.push(`- and ${alerts.length - 10} more`);
  const common = stringMap(payload.commonAnnotations);
  const lead = alerts.length === 1 ? (common.summary ?? common.description) : undefined;
  const description = clip([lead, ...(alerts.length === 1 && lead ? [] : lines)].filter(Boolean).join('\n'));

  // The labels every alert of the group shares, then the status (which a label cannot overwrite).
  const tags: Record<string, string> = { ...commonLabels, status };
  return {
    title,
    description: description || null,
    icon: status === 'firing' ? '🔥' : '✅',
    url: extraLinks(first) ?? str(first.generatorURL) ?? str(payload.externalURL) ?? null,
    tags,
    notify: status === 'firing',
  };
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A labels or annotations object, keeping only its text values. */
function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, entry] of Object.entries(obj(value))) if (typeof entry === 'string') out[key] = entry;
  return out;
}
