import type { Static } from '@sinclair/typebox';
import type { Ctx } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { InvalidInput } from '../../lib/errors.ts';
import { microsToIso } from '../../lib/time.ts';
import { ensureUsers } from '../profiles/ensureUser.ts';
import { requireUserId } from '../profiles/userInput.ts';
import { mergeGroupProperties, readPropertyUpdate, requireGroupId } from './groupInput.ts';
import { type GroupProperties, insertImportedGroups, selectExportGroups } from './queries.ts';
import type { TransferGroup } from './schemas.ts';

// A project's groups in the export document and back (features/transfer/): each group's id,
// properties, first seen time and its users' ids. Its users count and last seen follow from those.

type TransferGroupRow = Static<typeof TransferGroup>;

/** A group checked for import, merged with any earlier row of the same id. */
export interface GroupPlan {
  id: string;
  properties: GroupProperties;
  firstSeenMicros: string | null;
  users: Set<string>;
}

/** The project's groups, by id, as the export document carries them. */
export async function exportGroups(db: Db, organizationId: string, projectId: string): Promise<TransferGroupRow[]> {
  return (await selectExportGroups(db, organizationId, projectId)).map((row) => ({
    id: row.id,
    properties: row.properties,
    firstSeenAt: microsToIso(row.firstSeenMicros),
    users: row.users,
  }));
}

function firstSeenMicros(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const millis = Date.parse(value);
  if (!Number.isFinite(millis)) throw new InvalidInput('firstSeenAt must be an ISO 8601 time');
  return String(BigInt(millis) * 1000n);
}

/**
 * A project's group rows checked as POST /api/group checks a call; rows of the same id merge as
 * successive calls would (properties merged, users added, the earliest first seen kept).
 */
export function planGroups(rows: TransferGroupRow[], at: (index: number, check: () => void) => void): GroupPlan[] {
  const plans = new Map<string, GroupPlan>();
  rows.forEach((row, index) =>
    at(index, () => {
      const id = requireGroupId(row.id);
      const update = readPropertyUpdate(row.properties) ?? {};
      const users = (row.users ?? []).map((user) => requireUserId(user));
      const seen = firstSeenMicros(row.firstSeenAt);
      const earlier = plans.get(id);
      const plan = earlier ?? { id, properties: {}, firstSeenMicros: seen, users: new Set<string>() };
      plan.properties = mergeGroupProperties(plan.properties, update);
      for (const user of users) plan.users.add(user);
      if (earlier && seen !== null && (plan.firstSeenMicros === null || BigInt(seen) < BigInt(plan.firstSeenMicros))) plan.firstSeenMicros = seen;
      plans.set(id, plan);
    }),
  );
  return [...plans.values()];
}

/** Writes a new project's imported groups; members without a user yet are created as identify creates one. */
export async function writeImportedGroups(ctx: Ctx, tx: Db, projectId: string, groups: GroupPlan[]): Promise<void> {
  if (groups.length === 0) return;
  const userIds = [...new Set(groups.flatMap((group) => [...group.users]))];
  await ensureUsers({ ctx, input: { db: tx, projectId, userIds } });
  await insertImportedGroups(
    tx,
    ctx.organizationId,
    projectId,
    groups.map((group) => ({
      id: group.id,
      propertiesJson: JSON.stringify(group.properties),
      firstSeenMicros: group.firstSeenMicros,
      users: [...group.users],
    })),
  );
}
