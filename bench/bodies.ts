import {
  CATEGORIES,
  CHANNELS,
  DESCRIPTION_TEMPLATES,
  ICONS,
  NAMES,
  PLANS,
  REGIONS,
  TITLE_TEMPLATES,
  fill,
  largeMetadata,
  pick,
  prng,
  smallMetadata,
} from './vocabulary.ts';

/** One event as POST /api/events takes it (without `project`). */
export interface EventFields {
  category: string;
  title: string;
  description?: string;
  icon?: string;
  tags?: Record<string, string>;
  metadata?: Record<string, unknown>;
  url?: string;
  user_id?: string;
  notify?: boolean;
}

/**
 * The mix the issue asks for: about half with tags, a tenth with 2 KB of metadata, a
 * twentieth with notify; most with a description, some with an icon, url or user id.
 */
export function eventFields(seed: number): EventFields {
  const random = prng(seed * 2654435761);
  const c = Math.floor(random() * CATEGORIES.length);
  const name = pick(random, NAMES);
  const number = 1000 + Math.floor(random() * 99_000);
  const event: EventFields = { category: CATEGORIES[c]!, title: fill(TITLE_TEMPLATES[c]!, name, number) };
  if (random() < 0.9) event.description = fill(pick(random, DESCRIPTION_TEMPLATES), name, number);
  if (random() < 0.3) event.icon = ICONS[c]!;
  if (random() < 0.5) event.tags = { plan: pick(random, PLANS), region: pick(random, REGIONS), channel: pick(random, CHANNELS) };
  const m = random();
  if (m < 0.1) event.metadata = largeMetadata(random, number);
  else if (m < 0.5) event.metadata = smallMetadata(random, number);
  if (random() < 0.3) event.url = `https://app.example.com/events/${number}`;
  if (random() < 0.6) event.user_id = `usr_${Math.floor(random() * 50_000)}`;
  if (random() < 0.05) event.notify = true;
  return event;
}

export interface RequestBody {
  body: string;
  headers?: Record<string, string>;
}

/** Bodies cycled through by the load generator: `count` distinct ones is plenty. */
export function apiBodies(project: string, count: number): RequestBody[] {
  return Array.from({ length: count }, (_, i) => ({ body: JSON.stringify({ project, ...eventFields(i + 1) }) }));
}

/** POST /api/events/batch bodies of `size` events each, with the same mix as apiBodies. */
export function batchBodies(project: string, size: number, count: number): RequestBody[] {
  return Array.from({ length: count }, (_, b) => ({
    body: JSON.stringify({ events: Array.from({ length: size }, (_, i) => ({ project, ...eventFields(b * size + i + 1) })) }),
  }));
}

/**
 * Incoming hook requests with the same mix, in the JSON form the hook reads (the category comes
 * from the body when given, else the hook's default).
 */
export function hookBodies(count: number): RequestBody[] {
  return Array.from({ length: count }, (_, i) => ({ body: JSON.stringify(eventFields(i + 1)) }));
}

/** The export document shape (spec "Export document") with `count` events over 365 days. */
export function importDocument(count: number): Buffer {
  const now = Math.floor(Date.now() / 1000);
  const span = 365 * 86_400;
  const events = Array.from({ length: count }, (_, i) => {
    const e = eventFields(1_000_000 + i);
    return {
      category: e.category,
      title: e.title,
      description: e.description ?? null,
      icon: e.icon ?? null,
      tags: e.tags ?? null,
      metadata: e.metadata ?? null,
      url: e.url ?? null,
      user_id: e.user_id ?? null,
      notify: e.notify ?? false,
      favorited: i % 100 === 42,
      created_at: now - span + Math.floor((i * span) / count),
    };
  });
  return Buffer.from(
    JSON.stringify({
      version: 1,
      projects: [{ id: 'bench-import', name: 'Bench import', categories: [...CATEGORIES], events, insights: [] }],
    }),
  );
}
