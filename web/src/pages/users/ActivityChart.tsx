import { LongDate } from '../../components/Time.tsx';
import type { UserActivity } from '../../types.ts';

const WIDTH = 300;
const HEIGHT = 64;
const GAP = 2;

/** "3 December" for a YYYY-MM-DD day, read as that calendar day wherever the browser is. */
function dayWords(day: string): string {
  const date = new Date(`${day}T12:00:00`);
  return `${date.getDate()} ${date.toLocaleDateString(undefined, { month: 'long' })}`;
}

const events = (count: number) => `${count.toLocaleString()} ${count === 1 ? 'event' : 'events'}`;

/**
 * The user's events per day over the last 30 days as small bars, oldest on the left. The figure
 * says the same in words (total, active days, busiest day) for anyone who cannot see the bars.
 */
export function ActivityChart({ activity }: { activity: UserActivity }) {
  const { days } = activity;
  const total = days.reduce((sum, day) => sum + day.count, 0);
  const busiest = days.reduce((best, day) => (day.count > best.count ? day : best), days[0] ?? { day: '', count: 0 });
  const active = days.filter((day) => day.count > 0).length;
  const peak = Math.max(1, busiest.count);
  const slot = WIDTH / Math.max(1, days.length);
  const summary =
    total === 0
      ? 'No events in the last 30 days'
      : `${events(total)} in the last 30 days, on ${active} ${active === 1 ? 'day' : 'different days'}; busiest day ${dayWords(busiest.day)} with ${events(busiest.count)}`;
  const first = days[0]?.day;
  const last = days.at(-1)?.day;
  return (
    <figure className="activity-chart" data-testid="user-activity">
      <figcaption>
        <h2>Activity</h2>
        <p className="muted small" data-testid="user-activity-summary">
          {summary}
        </p>
      </figcaption>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="img" aria-label={summary}>
        <line className="activity-baseline" x1={0} x2={WIDTH} y1={HEIGHT - 0.5} y2={HEIGHT - 0.5} />
        {days.map((day, index) => {
          const height = day.count === 0 ? 0 : Math.max(3, (day.count / peak) * (HEIGHT - 4));
          return (
            <rect
              key={day.day}
              className="activity-bar"
              x={index * slot + GAP / 2}
              width={slot - GAP}
              y={HEIGHT - height}
              height={height}
              data-day={day.day}
              data-count={day.count}
            >
              <title>{`${dayWords(day.day)}: ${events(day.count)}`}</title>
            </rect>
          );
        })}
      </svg>
      {first && last && (
        <div className="activity-axis small muted" aria-hidden="true">
          <LongDate iso={`${first}T12:00:00`} />
          <span>Today</span>
        </div>
      )}
    </figure>
  );
}
