import { type FormEvent, useState } from 'react';
import { patch } from '../../api.ts';
import { useFieldErrors } from '../../components/FieldError.tsx';
import { useToast } from '../../components/Toasts.tsx';
import type { Hook } from '../../types.ts';
import { InlineEditActions, focusOnMount } from './InlineEdit.tsx';

/** Renames an incoming webhook or changes its default category, in its row; the URL stays. */
export function HookEdit({ hook, onSaved, onCancel }: { hook: Hook; onSaved: (hook: Hook) => void; onCancel: () => void }) {
  const toast = useToast();
  const [name, setName] = useState(hook.name);
  const [category, setCategory] = useState(hook.category);
  const [busy, setBusy] = useState(false);
  const fields = useFieldErrors({ name: ['name'], category: ['category'] });

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const change = { ...(name !== hook.name ? { name } : {}), ...(category !== hook.category ? { category } : {}) };
    if (Object.keys(change).length === 0) return onCancel();
    setBusy(true);
    fields.clear();
    try {
      const updated = await patch<Hook>(`/api/hooks/${encodeURIComponent(hook.id)}`, change);
      toast.success(`Incoming webhook “${updated.name}” saved`);
      onSaved(updated);
    } catch (failure) {
      if (!fields.show(failure)) toast.error(failure, 'Could not save the webhook');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="inline-edit"
      aria-label={`Edit ${hook.name}`}
      onSubmit={(event) => void save(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onCancel();
        }
      }}
      noValidate
      data-testid="hook-edit"
    >
      <label className="field">
        <span>Webhook name</span>
        <input
          ref={focusOnMount}
          name="editHookName"
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
        <span>Webhook default category</span>
        <input
          name="editHookCategory"
          required
          maxLength={100}
          value={category}
          onChange={(e) => {
            setCategory(e.target.value);
            fields.clear('category');
          }}
          {...fields.describe('category')}
        />
        {fields.message('category')}
      </label>
      <InlineEditActions busy={busy} onCancel={onCancel} />
    </form>
  );
}
