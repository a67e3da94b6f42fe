import type { Static } from '@sinclair/typebox';
import { InvalidInput } from '../../lib/errors.ts';
import { codePointLength, hasNul } from '../../lib/text.ts';
import { checkAlertDefinition } from '../alerts/transferAlerts.ts';
import { type GroupPlan, planGroups } from '../groups/transferGroups.ts';
import { MAX_CATEGORY_LENGTH, validateEventInput } from '../events/validateEventInput.ts';
import { type InsightDraft, validateInsightInput } from '../insights/validateInsightInput.ts';
import { MAX_PROJECT_NAME } from '../projects/createProject.ts';
import { type ImportedEvent, importedLine } from '../events/copyText.ts';
import { atRow } from './rowErrors.ts';
import type { TransferEvent, TransferProject } from './schemas.ts';

/** One project of the file, every row checked, ready to write under its fresh id. */
export interface ProjectPlan {
  /** The project's `id` in the file, or its index when it has none. */
  label: string;
  id: string;
  name: string;
  /** The file's categories and those its events use. */
  categories: string[];
  /** Checked events the file holds for it, already written (importWriter.ts). */
  eventCount: number;
  /** One per title: a later row of the same title wins (as if posted in order). */
  insights: InsightDraft[];
  /** Alert definitions, checked as creates are. */
  alerts: Array<ReturnType<typeof checkAlertDefinition>>;
  /** Groups and their users' ids, checked as group calls are. */
  groups: GroupPlan[];
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

/** Rows per insert statement (spec), and per chunk of a plan's events. */
export const IMPORT_CHUNK = 1000;

/** The export row in the shape POST /api/events takes, so the very same rules apply. */
export function eventDraft(path: string, row: Static<typeof TransferEvent>): ImportedEvent {
  const draft = atRow(path, () =>
    validateEventInput({
      // The project is written by the import itself, under the project's fresh id.
      project: '',
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
  return { ...draft, favorited: row.favorited ?? false };
}

/** Where a project's checked events go, IMPORT_CHUNK COPY lines at a time, in file order. */
type ChunkSink = (lines: Buffer) => void;

/**
 * A project's events, each row checked as it arrived and kept only as the line COPY reads
 * (`importedLine`), until IMPORT_CHUNK of them are handed to the writer: the checked draft is let
 * go at once, so a large file leaves no hundred thousand objects for the collector to carry.
 * `error` is the first row the rules refused.
 */
export class CheckedEvents {
  /**
   * The chunk being filled, as UTF-8. Each line is encoded into it at once, so no line outlives
   * its row: lines kept until their chunk was full lived through enough young collections to be
   * moved to the old generation, which then grew by the size of the file.
   */
  private filling = Buffer.allocUnsafe(16 * 1024);
  private filled = 0;
  private linesInChunk = 0;
  count = 0;
  readonly categories = new Set<string>();
  error?: Error;

  constructor(private readonly sink: ChunkSink) {}

  add(event: ImportedEvent): void {
    const line = `${importedLine(event)}\n`;
    // At most 3 bytes of UTF-8 per UTF-16 code unit.
    if (this.filled + line.length * 3 > this.filling.length) this.grow(line.length * 3);
    this.filled += this.filling.write(line, this.filled, 'utf8');
    if (++this.linesInChunk === IMPORT_CHUNK) this.seal();
    this.count++;
    this.categories.add(event.category);
  }

  /** Hands over the last, partial chunk: every row has been read. */
  close(): void {
    if (this.linesInChunk > 0) this.seal();
    this.filling = Buffer.alloc(0);
  }

  /** Lets every row go: the import will fail. */
  drop(): void {
    this.filling = Buffer.alloc(0);
    this.filled = 0;
    this.linesInChunk = 0;
  }

  /** The chunk being filled, copied out at its size; the filling buffer is used again. */
  private seal(): void {
    this.sink(Buffer.from(this.filling.subarray(0, this.filled)));
    this.filled = 0;
    this.linesInChunk = 0;
  }

  private grow(room: number): void {
    const larger = Buffer.allocUnsafe(Math.max(this.filling.length * 2, this.filled + room));
    this.filling.copy(larger, 0, 0, this.filled);
    this.filling = larger;
  }
}

/**
 * One project of the file, checked in the order the rows of a project have always been checked:
 * insights, name, categories, events.
 */
export function planProject(index: number, id: string, project: Static<typeof TransferProject>, events: CheckedEvents): ProjectPlan {
  const path = `projects[${index}]`;
  const insights = new Map<string, InsightDraft>();
  (project.insights ?? []).forEach((row, i) => {
    const draft = atRow(`${path}.insights[${i}]`, () => validateInsightInput(row));
    const earlier = insights.get(draft.title);
    insights.set(draft.title, { ...draft, icon: draft.icon === undefined ? earlier?.icon : draft.icon });
  });
  const name = projectName(path, project.name);
  const categories = new Set((project.categories ?? []).map((category, i) => categoryName(`${path}.categories[${i}]`, category)));
  if (events.error) throw events.error;
  for (const category of events.categories) categories.add(category);
  const alerts = (project.alerts ?? []).map((row, i) => atRow(`${path}.alerts[${i}]`, () => checkAlertDefinition(row)));
  const groups = planGroups(project.groups ?? [], (i, check) => atRow(`${path}.groups[${i}]`, check));
  return {
    label: project.id ?? String(index),
    id,
    name,
    categories: [...categories],
    eventCount: events.count,
    insights: [...insights.values()],
    alerts,
    groups,
  };
}

/** Two projects of one file may not share a label: the reply's idMap is keyed by it. */
export function checkLabels(plans: ProjectPlan[]): void {
  const labels = new Map<string, number>();
  plans.forEach((plan, index) => {
    const earlier = labels.get(plan.label);
    if (earlier !== undefined) {
      throw new InvalidInput(`projects[${index}].id ${JSON.stringify(plan.label)} is also the label of projects[${earlier}]`);
    }
    labels.set(plan.label, index);
  });
}
