import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import * as api from './generated/index.ts';
import { useToast } from './components/Toasts.tsx';
import type { CreatedProject, Project } from './types.ts';

// Arrow-typed members: pages destructure them (`const { reload } = useProjects()`).
interface ProjectsApi {
  projects: Project[] | null;
  reload: () => Promise<void>;
  create: (name: string) => Promise<CreatedProject>;
}

const ProjectsContext = createContext<ProjectsApi | null>(null);
const LAST_PROJECT = 'eventlog.lastProject';

export function rememberProject(id: string): void {
  try {
    localStorage.setItem(LAST_PROJECT, id);
  } catch {
    // storage may be disabled; remembering is only a convenience
  }
}

export function forgetProject(id: string): void {
  try {
    if (localStorage.getItem(LAST_PROJECT) === id) localStorage.removeItem(LAST_PROJECT);
  } catch {
    // see rememberProject
  }
}

export function lastProject(): string | null {
  try {
    return localStorage.getItem(LAST_PROJECT);
  } catch {
    return null;
  }
}

export function ProjectsProvider({ children }: { children: ReactNode }) {
  const toast = useToast();
  const [projects, setProjects] = useState<Project[] | null>(null);

  const reload = useCallback(async () => {
    try {
      setProjects(await api.listProjects());
    } catch (error) {
      toast.error(error, 'Could not load projects');
      setProjects((current) => current ?? []);
    }
  }, [toast]);

  useEffect(() => {
    void reload();
  }, [reload]);

  const create = useCallback(
    async (name: string) => {
      const created = await api.createProject({ body: { name } });
      await reload();
      return created;
    },
    [reload],
  );

  const value = useMemo(() => ({ projects, reload, create }), [projects, reload, create]);
  return <ProjectsContext.Provider value={value}>{children}</ProjectsContext.Provider>;
}

export function useProjects(): ProjectsApi {
  const value = useContext(ProjectsContext);
  if (!value) throw new Error('useProjects outside ProjectsProvider');
  return value;
}
