/** Characters of a long name kept whole at its end: names often differ only there (…checkout.failed). */
const TAIL = 12;

/**
 * A name that, when too wide, loses its middle instead of its end ("payments-se…ut-exhausted").
 * The cut is made by CSS at the width available; the full name belongs in the caller's title.
 */
export function MiddleEllipsis({ text, className }: { text: string; className?: string }) {
  const classes = className ? `middle-ellipsis ${className}` : 'middle-ellipsis';
  if (text.length <= TAIL * 2) {
    return (
      <span className={classes}>
        <span className="middle-ellipsis-head">{text}</span>
      </span>
    );
  }
  return (
    <span className={classes}>
      <span className="middle-ellipsis-head">{text.slice(0, -TAIL)}</span>
      <span className="middle-ellipsis-tail">{text.slice(-TAIL)}</span>
    </span>
  );
}
