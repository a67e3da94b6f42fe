import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState } from 'react';
import { describeError } from '../api.ts';

type Tone = 'error' | 'success' | 'info';

interface Toast {
  id: number;
  tone: Tone;
  text: string;
}

interface ToastApi {
  /** Shows an API or other failure in words. Stays until dismissed. */
  error(error: unknown, context?: string): void;
  success(text: string): void;
  info(text: string): void;
}

const ToastContext = createContext<ToastApi | null>(null);
const MAX_VISIBLE = 4;
const FADE_MS = 5000;

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const nextId = useRef(1);

  const dismiss = useCallback((id: number) => setToasts((list) => list.filter((toast) => toast.id !== id)), []);

  const push = useCallback(
    (tone: Tone, text: string) => {
      const id = nextId.current++;
      setToasts((list) => [...list.filter((toast) => toast.text !== text), { id, tone, text }].slice(-MAX_VISIBLE));
      if (tone !== 'error') setTimeout(() => dismiss(id), FADE_MS);
    },
    [dismiss],
  );

  const api = useMemo<ToastApi>(
    () => ({
      error: (error, context) => push('error', context ? `${context}: ${describeError(error)}` : describeError(error)),
      success: (text) => push('success', text),
      info: (text) => push('info', text),
    }),
    [push],
  );

  return (
    <ToastContext.Provider value={api}>
      {children}
      <div className="toasts" aria-live="polite">
        {toasts.map((toast) => (
          <div key={toast.id} className={`toast toast-${toast.tone}`} role={toast.tone === 'error' ? 'alert' : 'status'}>
            <span className="toast-text">{toast.text}</span>
            <button type="button" className="icon-button" aria-label="Dismiss message" onClick={() => dismiss(toast.id)}>
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToast outside ToastProvider');
  return api;
}
