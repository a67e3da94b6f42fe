import type { IncomingHttpHeaders } from 'node:http';
import { InvalidInput } from '../../../lib/errors.ts';
import { alertmanagerEvent } from './alertmanager.ts';
import { githubEvent } from './github.ts';
import { grafanaEvent } from './grafana.ts';
import { type TemplateFields, isObject, unreadable } from './templateFields.ts';

/** The services whose webhook payloads a hook can read (contract: lower case). */
const TEMPLATE_NAMES = ['github', 'grafana', 'alertmanager'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];

function isTemplateName(name: string): name is TemplateName {
  return (TEMPLATE_NAMES as readonly string[]).includes(name);
}

/** A template name as given by a hook or a `?template=`; anything else is 400. */
export function checkTemplateName(name: string): TemplateName {
  if (!isTemplateName(name)) throw new InvalidInput(`Unknown template "${name}": use one of ${TEMPLATE_NAMES.join(', ')}`);
  return name;
}

/**
 * Reads a hook body as the service's webhook payload. JSON, or for GitHub also the form encoding
 * its webhook settings offer (`payload=<json>`), so the hook URL works with either content type.
 */
export function templateFields(template: TemplateName, headers: IncomingHttpHeaders, body: Buffer | undefined): TemplateFields {
  const payload = parsePayload(template, headers['content-type'], body);
  const header = (name: string) => {
    const value = headers[name];
    return Array.isArray(value) ? value.at(-1) : value;
  };
  switch (template) {
    case 'github':
      return githubEvent(payload, header('x-github-event'));
    case 'grafana':
      return grafanaEvent(payload);
    case 'alertmanager':
      return alertmanagerEvent(payload);
  }
}

function parsePayload(template: TemplateName, contentType: string | undefined, body: Buffer | undefined): Record<string, unknown> {
  if (body === undefined || body.length === 0) throw unreadable(template, 'the body is empty');
  let text = body.toString('utf8');
  if (contentType?.split(';')[0]?.trim().toLowerCase() === 'application/x-www-form-urlencoded') {
    const payload = new URLSearchParams(text).get('payload');
    if (payload === null) throw unreadable(template, 'a form body needs a "payload" field');
    text = payload;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw unreadable(template, 'it is not valid JSON');
  }
  if (!isObject(value)) throw unreadable(template, 'expected a JSON object');
  return value;
}
