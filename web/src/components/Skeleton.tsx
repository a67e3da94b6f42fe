/**
 * Placeholder rows while a list loads: the page keeps its shape, so nothing jumps when the data
 * arrives. Screen readers hear one "Loading <what>" instead of empty boxes.
 */
export function Skeleton({ rows = 3, what }: { rows?: number; what: string }) {
  return (
    <div className="skeleton" role="status" aria-live="polite" data-testid="skeleton">
      <span className="visually-hidden">Loading {what}…</span>
      {Array.from({ length: rows }, (_, index) => (
        <div key={index} className="skeleton-row" aria-hidden="true">
          <span className="skeleton-bar skeleton-bar-wide" />
          <span className="skeleton-bar" />
        </div>
      ))}
    </div>
  );
}
