import { InvalidInput } from '../../../lib/errors.ts';

/** What a template makes of a service's payload: the event fields the hook's overrides can still replace. */
export interface TemplateFields {
  title: string;
  description: string | null;
  icon: string | null;
  url: string | null;
  tags: Record<string, string> | null;
  notify: boolean;
  metadata?: object | null;
}

/** A payload the template cannot read: 400, naming the template and what is missing. */
export function unreadable(template: string, why: string): InvalidInput {
  return new InvalidInput(`The ${template} template cannot read this body: ${why}`);
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A non-empty string field, or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

export function obj(value: unknown): Json {
  return isObject(value) ? value : {};
}

/** Descriptions stay readable in the feed and in a chat message. */
const MAX_TEMPLATE_DESCRIPTION = 2000;

export function clip(text: string, max = MAX_TEMPLATE_DESCRIPTION): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
