/**
 * What went wrong with a load or a write, where the page would have shown it. An alert, so a
 * screen reader says it at once; the Try again button appears when there is something to retry.
 */
export function ErrorBanner({
  error,
  what,
  onRetry,
  className,
  testId,
}: {
  /** The failure in words; nothing shows while it is null. */
  error: string | null;
  /** What failed, leading the words ("Could not load members"). */
  what?: string;
  onRetry?: () => unknown;
  /** A layout class of the place the banner sits in (a form grid's `span-2`). */
  className?: string;
  testId?: string;
}) {
  if (!error) return null;
  return (
    <div className={className ? `banner banner-error ${className}` : 'banner banner-error'} role="alert" data-testid={testId}>
      <span>{what ? `${what}: ${error}` : error}</span>
      {onRetry && (
        <button type="button" className="button button-small" onClick={() => void onRetry()}>
          Try again
        </button>
      )}
    </div>
  );
}
