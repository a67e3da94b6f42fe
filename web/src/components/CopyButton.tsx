import { useState } from 'react';
import { useToast } from './Toasts.tsx';

/** Copies text to the clipboard; falls back to selecting a hidden field where the API is missing. */
export async function copyText(text: string): Promise<void> {
  if (navigator.clipboard && window.isSecureContext) {
    await navigator.clipboard.writeText(text);
    return;
  }
  const field = document.createElement('textarea');
  field.value = text;
  field.setAttribute('readonly', '');
  field.style.position = 'fixed';
  field.style.opacity = '0';
  document.body.appendChild(field);
  field.select();
  const ok = document.execCommand('copy');
  field.remove();
  if (!ok) throw new Error('Copying is blocked by the browser; select the text and copy it by hand');
}

export function CopyButton({ text, label = 'Copy', what }: { text: string; label?: string; what?: string }) {
  const toast = useToast();
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="button button-small"
      onClick={() => {
        copyText(text).then(
          () => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          },
          (error: unknown) => toast.error(error, 'Copy failed'),
        );
      }}
    >
      {copied ? 'Copied' : label}
      {what && <span className="visually-hidden"> {what}</span>}
    </button>
  );
}
