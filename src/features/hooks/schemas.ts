import { Type } from '@sinclair/typebox';

export const Hook = Type.Object({
  id: Type.String(),
  projectId: Type.String(),
  name: Type.String(),
  category: Type.String({ description: 'Default category of the events this hook creates' }),
  enabled: Type.Boolean({ description: 'False while paused' }),
  template: Type.Union([Type.String(), Type.Null()], {
    description: "github, grafana or alertmanager: bodies are read as that service's webhook payload; a ?template= beats it",
  }),
  url: Type.String({ description: '{BASE_URL}/hook/whk_...: anyone holding it can create events' }),
  createdAt: Type.String({ format: 'date-time' }),
});

export const CreateHookBody = Type.Object({
  name: Type.String(),
  category: Type.String(),
  template: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});

export const UpdateHookBody = Type.Object(
  {
    name: Type.Optional(Type.String()),
    category: Type.Optional(Type.String({ description: 'Default category of the events this hook creates from now on' })),
    template: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: false },
);

export const ProjectIdParams = Type.Object({ projectId: Type.String({ maxLength: 64 }) });
export const HookIdParams = Type.Object({ hookId: Type.String({ maxLength: 64 }) });
export const TokenParams = Type.Object({ token: Type.String() });
