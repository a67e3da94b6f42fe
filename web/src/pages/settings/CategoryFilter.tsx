import { type FormEvent, useEffect, useId, useState } from 'react';
import { useToast } from '../../components/Toasts.tsx';
import * as api from '../../generated/index.ts';
import type { CategoryCount, Destination } from '../../types.ts';
import { CategoriesPicker } from './CategoriesPicker.tsx';

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((name, index) => name === b[index]);

/** A destination's category filter, chosen among the project's categories and saved on its own. */
export function CategoryFilter({
  destination,
  known,
  onChanged,
}: {
  destination: Destination;
  known: CategoryCount[] | null;
  onChanged: (destination: Destination) => void;
}) {
  const toast = useToast();
  const helpId = useId();
  const saved = destination.categories ?? [];
  const savedKey = saved.join('\n');
  const [chosen, setChosen] = useState(saved);
  const [busy, setBusy] = useState(false);
  // A change from elsewhere (another tab, the live stream) replaces what is shown.
  useEffect(() => setChosen(savedKey ? savedKey.split('\n') : []), [savedKey]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const updated = await api.updateDestination({ path: { destinationId: destination.id }, body: { categories: chosen.length > 0 ? chosen : null } });
      onChanged(updated);
      toast.success(updated.categories ? `“${updated.name}” now gets ${updated.categories.join(', ')} only` : `“${updated.name}” now gets every category`);
    } catch (failure) {
      toast.error(failure, 'Could not change the category filter');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="category-filter" onSubmit={(event) => void save(event)} data-testid="destination-categories">
      <CategoriesPicker label="Categories" known={known} value={chosen} onChange={setChosen} describedBy={helpId} />
      <div className="category-filter-actions">
        <button type="submit" className="button button-small" disabled={busy || sameList(chosen, saved)}>
          {busy ? 'Saving…' : 'Save filter'}
        </button>
        <span id={helpId} className="muted small">
          {destination.categories ? `Only ${destination.categories.join(', ')}` : 'Every notify event'}
        </span>
      </div>
    </form>
  );
}
