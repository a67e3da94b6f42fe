import type { Static } from '@sinclair/typebox';
import { InvalidInput } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { codePointLength, hasNul } from '../../lib/text.ts';
import { type EventDraft, MAX_CATEGORY_LENGTH, validateEventInput } from '../events/validateEventInput.ts';
import { type InsightDraft, validateInsightInput } from '../insights/validateInsightInput.ts';
import { MAX_PROJECT_NAME } from '../projects/createProject.ts';
import { atRow } from './rowErrors.ts';
import type { TransferEvent, TransferProject } from './schemas.ts';

/** The import document as the verbs need it; the route schema has already checked `version`. */
export interface ImportInput {
  projects: Array<Static<typeof TransferProject>>;
}

/** One project of the file, every row checked, ready to write under its fresh id. */
export interface ProjectPlan {
  /** The project's `id` in the file, or its index when it has none. */
  label: string;
  id: string;
  name: string;
  categories: string[];
  events: EventDraft[];
  /** Parallel to `events`. */
  favorited: boolean[];
  /** One per title: a later row of the same title wins (as if posted in order). */
  insights: InsightDraft[];
}

function projectName(path: string, raw: string): string {
  const name = raw.trim();
  if (!name) throw new InvalidInput(`${path}.name is required`);
  if (codePointLength(name) > MAX_PROJECT_NAME || hasNul(name)) {
    throw new InvalidInput(`${path}.name must be at most ${MAX_PROJECT_NAME} characters of text`);
  }
  return name;
}

function categoryName(path: string, name: string): string {
  if (name.trim() === '') throw new InvalidInput(`${path} must not be empty`);
  if (hasNul(name)) throw new InvalidInput(`${path} must not contain NUL characters`);
  if (codePointLength(name) > MAX_CATEGORY_LENGTH) throw new InvalidInput(`${path} must be at most ${MAX_CATEGORY_LENGTH} characters`);
  return name;
}

/** The export row in the shape POST /api/events takes, so the very same rules apply. */
function eventDraft(path: string, projectId: string, row: Static<typeof TransferEvent>): EventDraft {
  return atRow(path, () =>
    validateEventInput({
      project: projectId,
      category: row.category,
      title: row.title,
      description: row.description,
      icon: row.icon,
      tags: row.tags,
      metadata: row.metadata,
      url: row.url,
      user_id: row.user_id,
      notify: row.notify,
      created_at: row.created_at,
    }),
  );
}

function planProject(index: number, project: Static<typeof TransferProject>): ProjectPlan {
  const path = `projects[${index}]`;
  const id = newId(12);
  const insights = new Map<string, InsightDraft>();
  (project.insights ?? []).forEach((row, i) => {
    const draft = atRow(`${path}.insights[${i}]`, () => validateInsightInput(row));
    const earlier = insights.get(draft.title);
    insights.set(draft.title, { ...draft, icon: draft.icon === undefined ? earlier?.icon : draft.icon });
  });
  const events = project.events ?? [];
  return {
    label: project.id ?? String(index),
    id,
    name: projectName(path, project.name),
    categories: [...new Set((project.categories ?? []).map((name, i) => categoryName(`${path}.categories[${i}]`, name)))],
    events: events.map((row, i) => eventDraft(`${path}.events[${i}]`, id, row)),
    favorited: events.map((row) => row.favorited ?? false),
    insights: [...insights.values()],
  };
}

/**
 * Checks every row of the document before anything is written: the first invalid row is a 400
 * that names it. Types were checked by the route schema; this applies the rules of the
 * endpoints that create each kind of row.
 */
export function planImport(document: ImportInput): ProjectPlan[] {
  const plans = document.projects.map((project, index) => planProject(index, project));
  const labels = new Map<string, number>();
  plans.forEach((plan, index) => {
    const earlier = labels.get(plan.label);
    if (earlier !== undefined) {
      throw new InvalidInput(`projects[${index}].id ${JSON.stringify(plan.label)} is also the label of projects[${earlier}]`);
    }
    labels.set(plan.label, index);
  });
  return plans;
}
