/** The first field of an inline edit form takes the focus as it opens, so typing starts there. */
export function focusOnMount(input: HTMLInputElement | null): void {
  if (input && document.activeElement !== input) {
    input.focus();
    input.select();
  }
}

/** Save and Cancel of an inline edit form (Escape cancels too, handled by the form). */
export function InlineEditActions({ busy, onCancel }: { busy: boolean; onCancel: () => void }) {
  return (
    <div className="inline-edit-actions">
      <button type="submit" className="button button-small button-primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save'}
      </button>
      <button type="button" className="button button-small" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}
