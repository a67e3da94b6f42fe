import { type FormEvent, useState } from 'react';
import { Dialog } from '../components/Dialog.tsx';
import { useToast } from '../components/Toasts.tsx';
import type { Insight } from '../types.ts';
import { displayValue } from './insights/insightValue.ts';
import './insights/insights.css';
import * as api from '../generated/index.ts';

interface Props {
  projectId: string;
  /** The card being edited; null creates a new one. */
  insight: Insight | null;
  onClose: () => void;
  onSaved: () => void;
}

/**
 * Creates an insight or changes its value and icon. The title is the card's key (POST
 * /api/insight upserts by project and title), so it is fixed once the card exists.
 */
export function InsightEditor({ projectId, insight, onClose, onSaved }: Props) {
  const toast = useToast();
  const [title, setTitle] = useState(insight?.title ?? '');
  const [value, setValue] = useState(insight?.value ?? '');
  const [icon, setIcon] = useState(insight?.icon ?? '');
  const [busy, setBusy] = useState(false);
  // A number is shown in the reader's locale on the card: say how before it is saved.
  const shown = displayValue(value);
  const preview = shown.kind === 'number' && shown.text !== value.trim() ? shown.text : null;

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await api.upsertInsight({ body: { project: projectId, title, value, icon: icon.trim() === '' ? null : icon } });
      toast.success(insight ? `Insight “${title}” updated` : `Insight “${title}” created`);
      onSaved();
      onClose();
    } catch (failure) {
      toast.error(failure, insight ? 'Could not update the insight' : 'Could not create the insight');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open
      title={insight ? `Edit “${insight.title}”` : 'New insight'}
      onClose={onClose}
      actions={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="insight-editor" className="button button-primary" disabled={busy}>
            {busy ? 'Saving…' : insight ? 'Save' : 'Create insight'}
          </button>
        </>
      }
    >
      <form id="insight-editor" className="form-grid" onSubmit={(event) => void save(event)}>
        <label className="field">
          <span>Title</span>
          <input
            name="insightTitle"
            required
            maxLength={500}
            value={title}
            readOnly={insight !== null}
            onChange={(e) => setTitle(e.target.value)}
            placeholder="Active users"
          />
        </label>
        <label className="field">
          <span>Value</span>
          <input
            name="insightValue"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            placeholder="42"
            aria-describedby={preview ? 'insight-value-preview' : undefined}
            data-autofocus={insight ? true : undefined}
          />
        </label>
        {preview && (
          <p id="insight-value-preview" className="insight-preview" aria-live="polite">
            Shows as {preview}
          </p>
        )}
        <label className="field">
          <span>Icon (optional)</span>
          <input name="insightIcon" maxLength={16} value={icon} onChange={(e) => setIcon(e.target.value)} placeholder="👥" />
        </label>
      </form>
    </Dialog>
  );
}
