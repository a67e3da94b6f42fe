import type { Db } from '../../db/client.ts';
import { tagsContain } from '../../db/eventExpressions.ts';
import type { StepCondition } from './stepFilter.ts';

interface FunnelQuery {
  organizationId: string;
  projectId: string;
  steps: StepCondition[];
  windowSeconds: number;
  /** Absent: `until` minus 30 days. */
  sinceMicros?: bigint;
  /** Absent: the statement's now(), so an event committed just before the query counts. */
  untilMicros?: bigint;
}

const instant = (sql: Db, micros: bigint) => sql`(timestamptz 'epoch' + ${micros.toString()}::int8 * interval '1 microsecond')`;

/** A step's category on `e`: a key column of the category index, which carries the user too (migrations/124). */
const categoryMatches = (sql: Db, step: StepCondition) => (step.category !== undefined ? sql`AND e.category = ${step.category}` : sql``);

/** A step's tag pairs on `alias`, as the feed's `tag` filter tests them (the `events_tags` index). */
const tagsMatch = (sql: Db, step: StepCondition, alias: string) => tagsContain(sql, step.tags, alias);

/**
 * The users that reached each step, in one statement (extensions.md, "Funnels and breakdowns";
 * decisions 130 and 162). `step1` holds each user's first step-1 event in [since, until); each
 * next step takes, per user of the step before, the earliest matching event after that step's
 * event (in feed order, created_at then id, so one event never serves two steps) and no later
 * than the step-1 event plus the window. Taking the earliest is what lets the most users go on.
 *
 * A step's category, user and time are all in the category index, so a step without tags reads
 * that index alone. A later step with both a category and tags first finds, from the index, the
 * events of its category that the users of the step before could reach (`candidates`), and only
 * then reads those few events' tags through the primary key: reading the tags of every event of
 * the category in the range is what made a funnel slow. The joins are written as joins, so
 * PostgreSQL may instead walk each user's journey index when a step holds few users. No event
 * leaves the database. Every reference to `events` names the organization, so Citus routes the
 * whole statement to one shard.
 */
export async function countFunnel(sql: Db, q: FunnelQuery): Promise<number[]> {
  const until = q.untilMicros !== undefined ? instant(sql, q.untilMicros) : sql`now()`;
  const since = q.sinceMicros !== undefined ? instant(sql, q.sinceMicros) : sql`(${until} - interval '30 days')`;
  const window = sql`(${q.windowSeconds}::int * interval '1 second')`;
  const org = q.organizationId;
  const ofProject = sql`e.organization_id = ${org} AND e.project_id = ${q.projectId} AND e.user_id IS NOT NULL`;
  const [first, ...rest] = q.steps;
  const name = (k: number) => sql(`step${k}`);
  let ctes = sql`${name(1)} AS (
    SELECT DISTINCT ON (e.user_id) e.user_id, e.created_at AS started_at, e.created_at AS reached_at, e.id
    FROM events e
    WHERE ${ofProject} AND e.created_at >= ${since} AND e.created_at < ${until} ${categoryMatches(sql, first!)} ${tagsMatch(sql, first!, 'e')}
    ORDER BY e.user_id, e.created_at, e.id)`;
  rest.forEach((step, index) => {
    const k = index + 2;
    const reachable = (tags: ReturnType<typeof tagsMatch>) => sql`
      FROM ${name(k - 1)} p
      JOIN events e ON e.user_id = p.user_id
        AND (e.created_at, e.id) > (p.reached_at, p.id) AND e.created_at <= p.started_at + ${window}
      WHERE ${ofProject} AND e.created_at >= ${since} AND e.created_at <= ${until} + ${window} ${categoryMatches(sql, step)} ${tags}`;
    if (step.category === undefined || step.tags.length === 0) {
      ctes = sql`${ctes}, ${name(k)} AS (
        SELECT DISTINCT ON (p.user_id) p.user_id, p.started_at, e.created_at AS reached_at, e.id
        ${reachable(tagsMatch(sql, step, 'e'))}
        ORDER BY p.user_id, e.created_at, e.id)`;
      return;
    }
    const candidates = sql(`candidates${k}`);
    ctes = sql`${ctes}, ${candidates} AS MATERIALIZED (
        SELECT p.user_id, p.started_at, e.created_at AS reached_at, e.id
        ${reachable(sql``)}),
      ${name(k)} AS (
        SELECT DISTINCT ON (c.user_id) c.user_id, c.started_at, c.reached_at, c.id
        FROM ${candidates} c
        JOIN events t ON t.organization_id = ${org} AND t.id = c.id
        WHERE true ${tagsMatch(sql, step, 't')}
        ORDER BY c.user_id, c.reached_at, c.id)`;
  });
  const counts = q.steps.map((_, index) => sql`(SELECT count(*) FROM ${name(index + 1)})::int`);
  const [row] = await sql<{ users: number[] }[]>`
    WITH ${ctes}
    SELECT ARRAY[${counts.slice(1).reduce((all, count) => sql`${all}, ${count}`, counts[0]!)}] AS users`;
  return row!.users;
}
