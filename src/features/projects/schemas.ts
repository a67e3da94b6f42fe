import { Type } from '@sinclair/typebox';

export const Project = Type.Object({
  id: Type.String({ pattern: '^[a-z0-9]{12}$' }),
  organizationId: Type.String(),
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});

export const CreateProjectBody = Type.Object({ name: Type.String() });
export const CreatedProject = Type.Object({ id: Type.String(), name: Type.String() });
