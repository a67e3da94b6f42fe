import type { StepDraft } from './funnelQuery.ts';

const percent = (part: number, whole: number) => (whole > 0 ? `${((part / whole) * 100).toFixed(part === whole ? 0 : 1)}%` : '—');

function stepLabel(step: StepDraft): string {
  const parts = [step.category || 'Any event', ...step.tags];
  return parts.join(' · ');
}

/** A bar per step, its width the share of step 1's users, with counts and conversions as text. */
export function FunnelBars({ steps, users }: { steps: StepDraft[]; users: number[] }) {
  const first = users[0] ?? 0;
  return (
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
                <strong data-testid="funnel-users">{count.toLocaleString('en-US')}</strong> users
              </span>
            </div>
            <div className="funnel-track" aria-hidden="true">
              <div className="funnel-fill" style={{ width: first > 0 ? `${(count / first) * 100}%` : '0%' }} />
            </div>
            <p className="funnel-step-rates muted small">
              {index === 0 ? 'Entered the funnel' : `${percent(count, previous)} of step ${index} · ${percent(count, first)} of step 1`}
            </p>
          </li>
        );
      })}
    </ol>
  );
}
