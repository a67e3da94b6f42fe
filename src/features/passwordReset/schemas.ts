import { Type } from '@sinclair/typebox';

export const ResetRequestBody = Type.Object({ email: Type.String({ maxLength: 320 }) });

export const ResetConfirmBody = Type.Object({
  token: Type.String({ maxLength: 200, description: 'The last path segment of the link that was mailed' }),
  password: Type.String({ maxLength: 1024, description: 'The new password: 8 characters or more' }),
});

export const Ok = Type.Object({ ok: Type.Literal(true) });

export const ChangePasswordBody = Type.Object({
  currentPassword: Type.String({ maxLength: 1024, description: 'The password the member signs in with now' }),
  newPassword: Type.String({ maxLength: 1024, description: 'The new password: 8 characters or more' }),
});

export const ResetPreviewBody = Type.Object({ token: Type.String({ maxLength: 200, description: 'The last path segment of the link that was mailed' }) });
export const ResetPreview = Type.Object({ email: Type.String({ description: 'The account the link sets a password for' }) });
