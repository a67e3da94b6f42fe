import { type Sql, withTransaction } from '../../db/client.ts';
import { readSetting, writeSetting } from '../../db/settings.ts';
import { emptyDayCounts, emptyTagDayCounts, recountDayRange } from '../events/rollupRebuild.ts';
import { anyEventExists, lastEventIds, lockChartZoneStep } from './queries.ts';
import { lockTagKeys, restartTagKeys } from './tagRollupQueries.ts';

/** Event ids recounted per statement. */
const IDS_PER_STEP = 200_000;
/** A long rebuild reports at most this often. */
const PROGRESS_EVERY_MS = 2000;

/**
 * Startup step, after migrations. `event_daily_counts.day` is bucketed in the time zone of the
 * connection that wrote it; when the configured zone is not the recorded one (or none is
 * recorded but events exist), the rollup is recounted from `events` in the new zone and the
 * zone recorded, all in one transaction; the counts by tag value are emptied, their keys to be
 * backfilled again (decision 131). The advisory lock makes processes that start together
 * do this once: the others wait, then find the zone already recorded. The table lock makes
 * event writers of running processes wait, so no write is counted twice or missed.
 * `idsPerStep` is the range of event ids each statement recounts. Returns whether it rebuilt.
 */
export async function syncChartTimeZone(sql: Sql, timeZone: string, log: (message: string) => void = () => {}, idsPerStep = IDS_PER_STEP): Promise<boolean> {
  return withTransaction(sql, async (tx) => {
    await lockChartZoneStep(tx);
    const recorded = await readSetting(tx, 'chart_time_zone');
    if (recorded === timeZone) return false;
    if (recorded === undefined && !(await anyEventExists(tx))) {
      await writeSetting(tx, 'chart_time_zone', timeZone);
      return false;
    }

    log(`chart day buckets: recounting events for time zone ${timeZone} (was ${recorded ?? 'not recorded'})`);
    const started = Date.now();
    await emptyDayCounts(tx);
    // Maintenance over the whole installation, one organization at a time.
    const organizations = await lastEventIds(tx);
    // With ingest held by the day counts' lock, the counts by tag value are emptied and every key
    // is backfilled again, in the new zone, from its organization's last event id.
    await lockTagKeys(tx);
    await emptyTagDayCounts(tx);
    await restartTagKeys(tx, organizations);
    const totalIds = organizations.reduce((sum, org) => sum + org.lastId, 0);
    let counted = 0;
    let idsDone = 0;
    let lastReport = started;
    for (const { organizationId, lastId } of organizations) {
      for (let after = 0; after < lastId; after += idsPerStep) {
        const upTo = Math.min(after + idsPerStep, lastId);
        counted += await recountDayRange(tx, { organizationId, after, upTo, timeZone });
        idsDone += upTo - after;
        if (Date.now() - lastReport >= PROGRESS_EVERY_MS) {
          lastReport = Date.now();
          log(`chart day buckets: ${counted} events recounted (${Math.floor((idsDone / totalIds) * 100)}% of event ids)`);
        }
      }
    }
    await writeSetting(tx, 'chart_time_zone', timeZone);
    log(`chart day buckets: recounted ${counted} events for ${timeZone} in ${Date.now() - started} ms`);
    return true;
  });
}
