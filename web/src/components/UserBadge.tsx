import { initials, usePersonName } from './person.ts';

/** A user as a card shows them: their initials in a circle and their name (not "user usr_tp69"). */
export function UserBadge({ projectId, userId }: { projectId: string; userId: string }) {
  const name = usePersonName(projectId, userId) ?? userId;
  return (
    <>
      <span className="avatar avatar-small" aria-hidden="true" data-testid="user-initials">
        {initials(name)}
      </span>
      <span data-testid="user-name">{name}</span>
    </>
  );
}
