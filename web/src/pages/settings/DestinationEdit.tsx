import { type FormEvent, useState } from 'react';
import { patch } from '../../api.ts';
import { useFieldErrors } from '../../components/FieldError.tsx';
import { useToast } from '../../components/Toasts.tsx';
import type { Destination } from '../../types.ts';
import { InlineEditActions, focusOnMount } from './InlineEdit.tsx';

/** Renames a destination or points it at a new URL, in its row (PATCH /api/destinations/:id). */
export function DestinationEdit({ destination, onSaved, onCancel }: { destination: Destination; onSaved: (destination: Destination) => void; onCancel: () => void }) {
  const toast = useToast();
  const [name, setName] = useState(destination.name);
  const [url, setUrl] = useState(destination.url);
  const [busy, setBusy] = useState(false);
  const fields = useFieldErrors({ name: ['name'], url: ['url', 'mailto', 'address'] });

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const change = { ...(name !== destination.name ? { name } : {}), ...(url !== destination.url ? { url } : {}) };
    if (Object.keys(change).length === 0) return onCancel();
    setBusy(true);
    fields.clear();
    try {
      const updated = await patch<Destination>(`/api/destinations/${encodeURIComponent(destination.id)}`, change);
      toast.success(`Destination “${updated.name}” saved`);
      onSaved(updated);
    } catch (failure) {
      if (!fields.show(failure)) toast.error(failure, 'Could not save the destination');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="inline-edit"
      aria-label={`Edit ${destination.name}`}
      onSubmit={(event) => void save(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onCancel();
        }
      }}
      noValidate
      data-testid="destination-edit"
    >
      <label className="field">
        <span>Destination name</span>
        <input
          ref={focusOnMount}
          name="editDestinationName"
          required
          value={name}
          onChange={(e) => {
            setName(e.target.value);
            fields.clear('name');
          }}
          {...fields.describe('name')}
        />
        {fields.message('name')}
      </label>
      <label className="field">
        <span>Destination URL</span>
        <input
          name="editDestinationUrl"
          required
          className="mono"
          value={url}
          onChange={(e) => {
            setUrl(e.target.value);
            fields.clear('url');
          }}
          {...fields.describe('url')}
        />
        {fields.message('url')}
      </label>
      <InlineEditActions busy={busy} onCancel={onCancel} />
    </form>
  );
}
