import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import * as api from './generated/index.ts';
import type { OrganizationInfo } from './types.ts';

// Arrow-typed members: pages destructure them (`const { reload } = useOrganization()`).
interface OrganizationApi {
  /** null while loading, or when it could not be read. */
  info: OrganizationInfo | null;
  reload: () => void;
}

const OrganizationContext = createContext<OrganizationApi>({ info: null, reload: () => {} });

/** The signed-in person's organization and role: decides which owner-only actions are shown. */
export function OrganizationProvider({ children }: { children: ReactNode }) {
  const [info, setInfo] = useState<OrganizationInfo | null>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    api.getOrganization().then(
      (next) => live && setInfo(next),
      () => live && setInfo(null),
    );
    return () => {
      live = false;
    };
  }, [attempt]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return <OrganizationContext.Provider value={{ info, reload }}>{children}</OrganizationContext.Provider>;
}

export const useOrganization = () => useContext(OrganizationContext);

/** Owner-only actions are hidden until the role is known to be owner; the server refuses them anyway. */
export const useIsOwner = () => useOrganization().info?.role === 'owner';
