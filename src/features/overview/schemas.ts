import { Type } from '@sinclair/typebox';

const DayCount = Type.Object({ day: Type.String({ description: 'YYYY-MM-DD in the server time zone' }), count: Type.Integer() });

/** One project's recent activity, for the projects page (README, "Projects overview"). */
export const ProjectActivity = Type.Object({
  projectId: Type.String(),
  eventsToday: Type.Integer(),
  eventsThisWeek: Type.Integer({ description: 'The last 7 days, today included' }),
  series: Type.Array(DayCount, { description: 'The last 7 days, oldest first, days without events as 0' }),
  lastEventAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  firingAlerts: Type.Array(Type.Object({ id: Type.String(), name: Type.String() }), {
    description: 'Its enabled alerts that are firing now and not muted, oldest first',
  }),
});
