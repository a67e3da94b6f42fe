import { displayValue } from './insightValue.ts';
import './insights.css';

/**
 * An insight card's value. A number is one unbreakable piece that shrinks a step when long (and
 * goes compact when longer still, the full figure in the tooltip); text wraps between words, and
 * only inside a word too long for the card.
 */
export function InsightValue({ value }: { value: string }) {
  const shown = displayValue(value);
  if (shown.kind === 'empty') {
    return (
      <p className="insight-value insight-value-text">
        <span className="muted">(empty)</span>
      </p>
    );
  }
  if (shown.kind === 'text') {
    return (
      <p className={value.length > 24 ? 'insight-value insight-value-text insight-value-long' : 'insight-value insight-value-text'} title={value}>
        {value}
      </p>
    );
  }
  return (
    <p className={`insight-value insight-value-number insight-size-${shown.size}`} title={shown.full === value ? undefined : `${shown.full} (${value.trim()})`}>
      {shown.text}
    </p>
  );
}
