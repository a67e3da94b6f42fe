import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { ToastProvider } from './components/Toasts.tsx';
import { SessionProvider } from './session.tsx';
import './styles.css';
import { applyTheme } from './theme.ts';

applyTheme();

// The service worker (web/public/sw.js) keeps the app shell and an offline page, so the installed
// app opens without a network; it never answers /api. Registered after load, off the first render's path.
if ('serviceWorker' in navigator && import.meta.env.PROD) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/app/sw.js', { scope: '/app/' }).catch((error: unknown) => console.warn('service worker not registered', error));
  });
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ToastProvider>
        <SessionProvider>
          <App />
        </SessionProvider>
      </ToastProvider>
    </StrictMode>,
  );
}
