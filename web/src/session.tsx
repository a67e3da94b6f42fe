import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { ApiError, setCsrfToken, setUnauthorizedHandler } from './api.ts';
import * as api from './generated/index.ts';
import { APP_BASE } from './paths.ts';
import type { Session, SignInMethods } from './types.ts';

type SessionState =
  | { status: 'loading' }
  | { status: 'unreachable'; message: string }
  /** `signIn` is known when the setup status was read; the sign-in page asks for it otherwise. */
  | { status: 'signedOut'; setupNeeded: boolean; notice?: string; signIn?: SignInMethods }
  | { status: 'signedIn'; session: Session };

// Arrow-typed members: pages destructure them (`const { signIn } = useSession()`), and none uses `this`.
interface SessionApi {
  state: SessionState;
  signIn: (email: string, password: string) => Promise<void>;
  setup: (input: { organizationName: string; email: string; password: string }) => Promise<void>;
  signOut: () => Promise<void>;
  /** Accepts an invitation link's token: the account is created and signed in. */
  acceptInvitation: (token: string, password: string) => Promise<void>;
  retry: () => void;
}

const OFFLINE_MESSAGE = 'You are offline. Eventlog will load again when the connection is back.';

const SessionContext = createContext<SessionApi | null>(null);

async function loadSessionState(): Promise<SessionState> {
  try {
    const session = await api.getSession({ quiet401: true });
    setCsrfToken(session.csrfToken);
    return { status: 'signedIn', session };
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 401) {
      const message = navigator.onLine === false ? OFFLINE_MESSAGE : error instanceof Error ? error.message : String(error);
      return { status: 'unreachable', message };
    }
  }
  try {
    const { needed, signIn } = await api.getSetupStatus({ quiet401: true });
    return { status: 'signedOut', setupNeeded: needed, signIn };
  } catch {
    // Without an answer, signing in is the safe default: setup is refused once anyone exists.
    return { status: 'signedOut', setupNeeded: false };
  }
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    // loadSessionState turns every failure into a state, so this promise never rejects.
    void loadSessionState().then((next) => {
      if (live) setState(next);
    });
    return () => {
      live = false;
    };
  }, [attempt]);

  // Offline at load: try again as soon as the browser is back online.
  const unreachable = state.status === 'unreachable';
  useEffect(() => {
    if (!unreachable) return;
    const again = () => setAttempt((n) => n + 1);
    window.addEventListener('online', again);
    return () => window.removeEventListener('online', again);
  }, [unreachable]);

  useEffect(() => {
    setUnauthorizedHandler(() => {
      setCsrfToken(null);
      setState({ status: 'signedOut', setupNeeded: false, notice: 'Your session has ended. Sign in again to continue.' });
    });
    return () => setUnauthorizedHandler(null);
  }, []);

  const signIn = useCallback(async (email: string, password: string) => {
    const session = await api.signIn({ body: { email, password } }, { quiet401: true });
    setCsrfToken(session.csrfToken);
    setState({ status: 'signedIn', session });
  }, []);

  const setup = useCallback(async (input: { organizationName: string; email: string; password: string }) => {
    const session = await api.setUpInstallation({ body: input }, { quiet401: true });
    setCsrfToken(session.csrfToken);
    setState({ status: 'signedIn', session });
  }, []);

  const acceptInvitation = useCallback(async (token: string, password: string) => {
    const session = await api.acceptInvitation({ body: { token, password } }, { quiet401: true });
    setCsrfToken(session.csrfToken);
    // The used link leaves the address bar (and the history) before the dashboard opens.
    window.history.replaceState(null, '', `${APP_BASE}/`);
    setState({ status: 'signedIn', session });
  }, []);

  const signOut = useCallback(async () => {
    try {
      await api.signOut({ quiet401: true });
    } finally {
      setCsrfToken(null);
      setState({ status: 'signedOut', setupNeeded: false });
    }
  }, []);

  const value = useMemo<SessionApi>(
    () => ({ state, signIn, setup, signOut, acceptInvitation, retry: () => setAttempt((n) => n + 1) }),
    [state, signIn, setup, signOut, acceptInvitation],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionApi {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The signed-in session; only for components rendered behind the sign-in gate. */
export function useSignedIn(): Session {
  const { state } = useSession();
  if (state.status !== 'signedIn') throw new Error('useSignedIn while signed out');
  return state.session;
}
