import { alertGroupEvent } from './alertGroup.ts';
import type { Json, TemplateFields } from './templateFields.ts';

/** Prometheus Alertmanager's webhook_config (payload version 4): the link is the first alert's rule. */
export function alertmanagerEvent(payload: Json): TemplateFields {
  return alertGroupEvent('alertmanager', payload, () => undefined);
}
