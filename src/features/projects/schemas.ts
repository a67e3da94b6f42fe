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
