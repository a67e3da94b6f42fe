import type { StepDraft } from './funnelQuery.ts';

const percent = (part: number, whole: number) => (whole > 0 ? `${((part / whole) * 100).toFixed(part === whole ? 0 : 1)}%` : '—');

function stepLabel(step: StepDraft): string {
  const parts = [step.category || 'Any event', ...step.tags];
  return parts.join(' · ');
}

const people = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'user' : 'users'}`;

/** What a step kept of the one before, what it lost, and (from step 3 on) where it stands overall. */
function stepRates(index: number, count: number, previous: number, first: number): string {
  if (index === 0) return 'Entered the funnel';
  const kept = `${percent(count, previous)} of step ${index}`;
  const lost = previous - count > 0 ? `${people(previous - count)} dropped off` : 'nobody dropped off';
  return index === 1 ? `${kept} · ${lost}` : `${kept} · ${lost} · ${percent(count, first)} overall`;
}

/**
 * The overall conversion first, then a bar per step, its width the share of step 1's users, with
 * counts, conversions and drop-offs as text.
 */
export function FunnelBars({ steps, users }: { steps: StepDraft[]; users: number[] }) {
  const first = users[0] ?? 0;
  const last = users[users.length - 1] ?? 0;
  return (
    <>
      <p className="funnel-overall" data-testid="funnel-overall">
        <strong>{percent(last, first)}</strong> overall conversion{' '}
        <span className="muted">
          ({last.toLocaleString('en-US')} of {people(first)} reached step {steps.length})
        </span>
      </p>
      <ol className="funnel-bars" aria-label="Funnel">
        {steps.map((step, index) => {
          const count = users[index] ?? 0;
          const previous = index === 0 ? count : (users[index - 1] ?? 0);
          return (
            <li key={index} className="funnel-step" data-testid="funnel-step">
              <div className="funnel-step-head">
                <span className="funnel-step-name">
                  <span className="muted">{index + 1}.</span> {stepLabel(step)}
                </span>
                <span className="funnel-step-count">
                  <strong data-testid="funnel-users">{count.toLocaleString('en-US')}</strong> {count === 1 ? 'user' : 'users'}
                </span>
              </div>
              <div className="funnel-track" aria-hidden="true">
                <div className="funnel-fill" style={{ width: first > 0 ? `${(count / first) * 100}%` : '0%' }} />
              </div>
              <p className="funnel-step-rates muted small">{stepRates(index, count, previous, first)}</p>
            </li>
          );
        })}
      </ol>
    </>
  );
}
