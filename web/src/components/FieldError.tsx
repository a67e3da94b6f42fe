import { useEffect, useId, useRef, useState } from 'react';
import { describeError } from '../api.ts';
import { fieldOfMessage } from './wording.ts';

/**
 * Validation errors of one form, shown beside their fields (aria-invalid, aria-describedby)
 * rather than in a toast far away. `fields` maps each field to the words an error about it
 * starts with.
 */
export function useFieldErrors<F extends string>(fields: Record<F, string[]>) {
  const prefix = useId();
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  const errorId = (field: F) => `${prefix}-${field}-error`;
  // The field to focus once it is rendered with its error, so it is read out with it.
  const focusNext = useRef<F | null>(null);
  useEffect(() => {
    const field = focusNext.current;
    if (field === null) return;
    focusNext.current = null;
    document.querySelector<HTMLElement>(`[aria-describedby="${CSS.escape(`${prefix}-${field}-error`)}"]`)?.focus();
  }, [errors, prefix]);
  return {
    errors,
    /** Shows the failure beside its field; false when it is about none, for a toast instead. */
    show(failure: unknown): boolean {
      const message = describeError(failure);
      const field = fieldOfMessage(message, fields);
      if (field === null) return false;
      focusNext.current = field;
      setErrors({ [field]: message } as Partial<Record<F, string>>);
      return true;
    },
    set(field: F, message: string) {
      setErrors({ [field]: message } as Partial<Record<F, string>>);
    },
    clear(field?: F) {
      setErrors((current) => {
        if (field === undefined) return {};
        if (!current[field]) return current;
        const next = { ...current };
        delete next[field];
        return next;
      });
    },
    /** Props for the input of `field`. */
    describe(field: F) {
      return errors[field] ? { 'aria-invalid': true as const, 'aria-describedby': errorId(field) } : {};
    },
    message(field: F) {
      const text = errors[field];
      return text ? (
        // Inside the field's label but out of its name: read as the field's description instead.
        <span id={errorId(field)} className="field-error" aria-hidden="true" data-testid={`${field}-error`}>
          {text}
        </span>
      ) : null;
    },
  };
}
