import { Link } from 'wouter';
import { RelativeTime } from '../components/Time.tsx';
import type { ProjectActivity } from '../types.ts';
import './projects/projects.css';

const WIDTH = 112;
const HEIGHT = 28;

/** Seven days as a line, its numbers in the label (the picture is decoration for a screen reader). */
function Sparkline({ series }: { series: ProjectActivity['series'] }) {
  const top = Math.max(1, ...series.map((point) => point.count));
  const step = series.length > 1 ? WIDTH / (series.length - 1) : WIDTH;
  const points = series.map((point, index) => `${(index * step).toFixed(1)},${(HEIGHT - 2 - (point.count / top) * (HEIGHT - 4)).toFixed(1)}`).join(' ');
  const label = `Events per day over the last 7 days: ${series.map((point) => point.count.toLocaleString('en-US')).join(', ')}`;
  return (
    <svg className="sparkline" width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label}>
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="2" strokeLinejoin="round" />
      {/* A column per day under the pointer: hovering shows that day's count. */}
      {series.map((point, index) => (
        <rect key={point.day} className="sparkline-day" x={Math.max(0, index * step - step / 2)} y={0} width={step} height={HEIGHT} data-testid="sparkline-day">
          <title>{`${point.day}: ${point.count.toLocaleString('en-US')} ${point.count === 1 ? 'event' : 'events'}`}</title>
        </rect>
      ))}
    </svg>
  );
}

/**
 * A project's activity on the projects page: events today and over 7 days, a sparkline, the last
 * event's time, and its firing alerts by name: the Firing badge opens the project's alerts, each
 * name its alert.
 */
export function ProjectActivitySummary({ projectId, activity }: { projectId: string; activity: ProjectActivity | undefined }) {
  if (!activity) return null;
  return (
    <div className="project-activity" data-testid="project-activity">
      <dl className="project-counts">
        <div>
          <dt>Today</dt>
          <dd>{activity.eventsToday.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt>7 days</dt>
          <dd>{activity.eventsThisWeek.toLocaleString('en-US')}</dd>
        </div>
        <div>
          <dt>Last event</dt>
          <dd>
            <RelativeTime iso={activity.lastEventAt} />
          </dd>
        </div>
      </dl>
      <Sparkline series={activity.series} />
      {activity.firingAlerts.length > 0 && (
        <p className="project-firing" data-testid="project-firing-alerts">
          <Link href={`/p/${projectId}/alerts`} className="badge badge-firing badge-link">
            Firing<span className="visually-hidden">: open the alerts of this project</span>
          </Link>{' '}
          {activity.firingAlerts.map((alert, index) => (
            <span key={alert.id}>
              {index > 0 && ', '}
              <Link href={`/p/${projectId}/alerts?alert=${encodeURIComponent(alert.id)}`} data-testid="project-firing-alert">
                {alert.name}
              </Link>
            </span>
          ))}
        </p>
      )}
    </div>
  );
}
