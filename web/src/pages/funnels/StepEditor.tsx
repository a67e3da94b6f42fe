import { useId, useState } from 'react';
import type { CategoryCount } from '../../types.ts';
import type { StepDraft } from './funnelQuery.ts';

interface Props {
  index: number;
  step: StepDraft;
  categories: CategoryCount[];
  onChange: (step: StepDraft) => void;
  onRemove?: () => void;
}

/** One step: a category picker, tag filters added as `key:value` chips, and a remove button. */
export function StepEditor({ index, step, categories, onChange, onRemove }: Props) {
  const id = useId();
  const [tag, setTag] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const addTag = () => {
    const text = tag.trim();
    if (text.indexOf(':') <= 0) {
      setProblem('Write a tag as key:value');
      return;
    }
    setProblem(null);
    setTag('');
    if (!step.tags.includes(text)) onChange({ ...step, tags: [...step.tags, text] });
  };
  const known = categories.some((category) => category.name === step.category);
  return (
    <fieldset className="funnel-step-editor card">
      <legend>Step {index + 1}</legend>
      <label className="field">
        <span>Category</span>
        <select name={`step${index + 1}Category`} value={step.category} onChange={(e) => onChange({ ...step, category: e.target.value })}>
          <option value="">Any category</option>
          {!known && step.category && <option value={step.category}>{step.category}</option>}
          {categories.map((category) => (
            <option key={category.name} value={category.name}>
              {category.name}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Tag filter</span>
        <input
          name={`step${index + 1}Tag`}
          value={tag}
          placeholder="plan:pro"
          aria-describedby={problem ? `${id}-problem` : undefined}
          aria-invalid={problem ? true : undefined}
          onChange={(e) => setTag(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              addTag();
            }
          }}
        />
      </label>
      <div className="funnel-step-actions">
        <button type="button" className="button button-small" onClick={addTag}>
          Add tag<span className="visually-hidden"> to step {index + 1}</span>
        </button>{' '}
        {onRemove && (
          <button type="button" className="button button-small" onClick={onRemove}>
            Remove<span className="visually-hidden"> step {index + 1}</span>
          </button>
        )}
      </div>
      {problem && (
        <p id={`${id}-problem`} className="field-error small">
          {problem}
        </p>
      )}
      {step.tags.length > 0 && (
        <div className="chips" aria-label={`Tags of step ${index + 1}`}>
          {step.tags.map((t) => (
            <button
              key={t}
              type="button"
              className="chip"
              aria-label={`Remove tag ${t} from step ${index + 1}`}
              onClick={() => onChange({ ...step, tags: step.tags.filter((x) => x !== t) })}
            >
              {t} ×
            </button>
          ))}
        </div>
      )}
    </fieldset>
  );
}
