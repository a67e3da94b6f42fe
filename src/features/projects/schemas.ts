import { Type } from '@sinclair/typebox';

export const Project = Type.Object({
  id: Type.String({ pattern: '^[a-z0-9]{12}$' }),
  organizationId: Type.String(),
  name: Type.String(),
  retentionDays: Type.Union([Type.Integer(), Type.Null()], { description: 'Days events are kept; null keeps them forever' }),
  createdAt: Type.String({ format: 'date-time' }),
});

export const CreateProjectBody = Type.Object({ name: Type.String() });
export const CreatedProject = Type.Object({ id: Type.String(), name: Type.String() });

export const ProjectIdParams = Type.Object({ projectId: Type.String() });
export const UpdateProjectBody = Type.Object({
  name: Type.Optional(Type.String()),
  retentionDays: Type.Optional(Type.Union([Type.Number(), Type.Null()], { description: 'Integer 1-36500, or null to keep forever' })),
});

const DayCount = Type.Object({ day: Type.String({ description: 'YYYY-MM-DD in the server time zone' }), count: Type.Integer() });

/** One project's recent activity, for the projects page (README, "Projects overview"). */
export const ProjectActivity = Type.Object({
  projectId: Type.String(),
  eventsToday: Type.Integer(),
  eventsThisWeek: Type.Integer({ description: 'The last 7 days, today included' }),
  series: Type.Array(DayCount, { description: 'The last 7 days, oldest first, days without events as 0' }),
  lastEventAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  firingAlerts: Type.Array(Type.Object({ id: Type.String(), name: Type.String() }), { description: 'Its enabled alerts that are firing now, oldest first' }),
});
