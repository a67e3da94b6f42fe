/** Grey placeholder rows while the first page loads, shaped like the real rows. */
export function SkeletonRows({ count = 8 }: { count?: number }) {
  return (
    <div className="feed-skeleton" aria-hidden="true" data-testid="feed-skeleton">
      {Array.from({ length: count }, (_, index) => (
        <div key={index} className="skeleton-row">
          <span className="skeleton skeleton-icon" />
          <span className="skeleton-lines">
            <span className="skeleton skeleton-line" style={{ width: `${55 + ((index * 17) % 35)}%` }} />
            <span className="skeleton skeleton-line short" style={{ width: `${25 + ((index * 11) % 30)}%` }} />
          </span>
        </div>
      ))}
    </div>
  );
}
