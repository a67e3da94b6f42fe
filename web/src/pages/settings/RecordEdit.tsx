import { type FormEvent, useState } from 'react';
import { useFieldErrors } from '../../components/FieldError.tsx';
import { useToast } from '../../components/Toasts.tsx';
import { InlineEditActions, focusOnMount } from './InlineEdit.tsx';

/** One text field of an inline edit form; `errors` are the API's field names that land on it. */
export interface EditField<K extends string> {
  key: K;
  label: string;
  inputName: string;
  errors: string[];
  maxLength?: number;
  mono?: boolean;
}

interface RecordEditProps<K extends string, T extends { id: string; name: string } & Record<K, string>> {
  record: T;
  fields: ReadonlyArray<EditField<K>>;
  /** Sends what changed (the record's generated update call). */
  save: (change: Partial<Record<K, string>>) => Promise<T>;
  /** "Incoming webhook", "Destination": the toasts name the record with it. */
  noun: string;
  testId: string;
  onSaved: (record: T) => void;
  onCancel: () => void;
}

/**
 * A record's text fields edited in its row (hooks, destinations): only what changed is sent,
 * nothing changed cancels, Escape cancels, and a refused field shows its error beside it.
 */
export function RecordEdit<K extends string, T extends { id: string; name: string } & Record<K, string>>(props: RecordEditProps<K, T>) {
  const { record, fields, save: send, noun, testId, onSaved, onCancel } = props;
  const toast = useToast();
  const [values, setValues] = useState(() => Object.fromEntries(fields.map((field) => [field.key, String(record[field.key])])) as Record<K, string>);
  const [busy, setBusy] = useState(false);
  const errors = useFieldErrors(Object.fromEntries(fields.map((field) => [field.key, field.errors])) as Record<K, string[]>);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    const change = Object.fromEntries(
      fields.filter((field) => values[field.key] !== record[field.key]).map((field) => [field.key, values[field.key]]),
    ) as Partial<Record<K, string>>;
    if (Object.keys(change).length === 0) return onCancel();
    setBusy(true);
    errors.clear();
    try {
      const updated = await send(change);
      toast.success(`${noun} “${updated.name}” saved`);
      onSaved(updated);
    } catch (failure) {
      if (!errors.show(failure)) toast.error(failure, `Could not save the ${noun.toLowerCase()}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="inline-edit"
      aria-label={`Edit ${record.name}`}
      onSubmit={(event) => void save(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          onCancel();
        }
      }}
      noValidate
      data-testid={testId}
    >
      {fields.map((field, index) => (
        <label key={field.key} className="field">
          <span>{field.label}</span>
          <input
            ref={index === 0 ? focusOnMount : undefined}
            name={field.inputName}
            required
            className={field.mono ? 'mono' : undefined}
            maxLength={field.maxLength}
            value={values[field.key]}
            onChange={(e) => {
              setValues((current) => ({ ...current, [field.key]: e.target.value }));
              errors.clear(field.key);
            }}
            {...errors.describe(field.key)}
          />
          {errors.message(field.key)}
        </label>
      ))}
      <InlineEditActions busy={busy} onCancel={onCancel} />
    </form>
  );
}
