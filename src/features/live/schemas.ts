import { Type } from '@sinclair/typebox';

export const LiveQuery = Type.Object({ project: Type.String({ minLength: 1, maxLength: 64 }) });
