import type { Db } from '../../db/client.ts';
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

/**
 * A step's filter on `e`. Each tag pair is a containment test on `tags::jsonb`, the expression
 * of the `events_tags` index (migrations/050), with the alternatives the feed's `tag` uses.
 */
function stepMatches(sql: Db, step: StepCondition) {
  const category = step.category !== undefined ? sql`AND e.category = ${step.category}` : sql``;
  return step.tags.reduce(
    (all, alternatives) =>
      sql`${all} AND (${alternatives.slice(1).reduce((any, json) => sql`${any} OR e.tags::jsonb @> ${json}::text::jsonb`, sql`e.tags::jsonb @> ${alternatives[0]!}::text::jsonb`)})`,
    category,
  );
}

/**
 * The users that reached each step, in one statement (extensions.md, "Funnels and breakdowns").
 * `s1` holds each user's first step-1 event in [since, until); each next CTE takes, per user of
 * the step before, the earliest matching event after that step's event (in feed order,
 * created_at then id, so one event never serves two steps) and no later than the step-1 event
 * plus the window. Taking the earliest is what lets the most users go on. The join is on
 * (project_id, user_id, created_at), so PostgreSQL may walk each user's journey index or scan
 * the step's category index over [since, until + window) and hash the users, whichever is
 * cheaper; no event leaves the database. Every reference to `events` names the organization,
 * so Citus routes the whole statement to one shard.
 */
export async function countFunnel(sql: Db, q: FunnelQuery): Promise<number[]> {
  const until = q.untilMicros !== undefined ? instant(sql, q.untilMicros) : sql`now()`;
  const since = q.sinceMicros !== undefined ? instant(sql, q.sinceMicros) : sql`(${until} - interval '30 days')`;
  const window = sql`(${q.windowSeconds}::int * interval '1 second')`;
  const ofProject = sql`e.organization_id = ${q.organizationId} AND e.project_id = ${q.projectId} AND e.user_id IS NOT NULL`;
  const [first, ...rest] = q.steps;
  const name = (k: number) => sql(`step${k}`);
  let ctes = sql`${name(1)} AS (
    SELECT DISTINCT ON (e.user_id) e.user_id, e.created_at AS started_at, e.created_at AS reached_at, e.id
    FROM events e
    WHERE ${ofProject} AND e.created_at >= ${since} AND e.created_at < ${until} ${stepMatches(sql, first!)}
    ORDER BY e.user_id, e.created_at, e.id)`;
  rest.forEach((step, index) => {
    const k = index + 2;
    ctes = sql`${ctes}, ${name(k)} AS (
      SELECT DISTINCT ON (p.user_id) p.user_id, p.started_at, e.created_at AS reached_at, e.id
      FROM ${name(k - 1)} p
      JOIN events e ON e.user_id = p.user_id
        AND (e.created_at, e.id) > (p.reached_at, p.id) AND e.created_at <= p.started_at + ${window}
      WHERE ${ofProject} AND e.created_at >= ${since} AND e.created_at <= ${until} + ${window} ${stepMatches(sql, step)}
      ORDER BY p.user_id, e.created_at, e.id)`;
  });
  const counts = q.steps.map((_, index) => sql`(SELECT count(*) FROM ${name(index + 1)})::int`);
  const [row] = await sql<{ users: number[] }[]>`
    WITH ${ctes}
    SELECT ARRAY[${counts.slice(1).reduce((all, count) => sql`${all}, ${count}`, counts[0]!)}] AS users`;
  return row!.users;
}
