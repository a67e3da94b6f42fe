import { alertGroupEvent } from './alertGroup.ts';
import { type Json, type TemplateFields, str } from './templateFields.ts';

/** Grafana Alerting's webhook contact point: Alertmanager's notification plus panel and dashboard links. */
export function grafanaEvent(payload: Json): TemplateFields {
  return alertGroupEvent('grafana', payload, (alert) => str(alert.panelURL) ?? str(alert.dashboardURL));
}
