import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { useFieldErrors } from '../components/FieldError.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { Skeleton } from '../components/Skeleton.tsx';
import { RelativeTime } from '../components/Time.tsx';
import { useToast } from '../components/Toasts.tsx';
import { useResource } from '../components/useResource.ts';
import * as api from '../generated/index.ts';
import { useProjects } from '../projects.tsx';
import { ProjectActivitySummary } from './ProjectActivity.tsx';

export function ProjectsPage() {
  const { projects, create } = useProjects();
  const toast = useToast();
  const [, navigate] = useLocation();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const fields = useFieldErrors({ name: ['name'] });
  // Read again when a project appears, so the new one has its (empty) activity too.
  const known = projects?.length ?? 0;
  const { data: rows, error } = useResource((signal) => api.projectActivity({ signal }), [known]);
  useEffect(() => {
    if (error) toast.error(error, "Could not load the projects' activity");
  }, [error, toast]);
  const activity = useMemo(() => new Map((rows ?? []).map((row) => [row.projectId, row])), [rows]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    fields.clear();
    try {
      const created = await create(name);
      setName('');
      toast.success(`Project “${created.name}” created`);
      navigate(`/p/${created.id}`);
    } catch (error) {
      if (!fields.show(error)) toast.error(error, 'Could not create the project');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="page page-narrow">
      <PageHeader title="Projects" />
      <form className="card inline-form" onSubmit={(event) => void submit(event)}>
        <label className="field grow">
          <span>New project name</span>
          <input
            name="projectName"
            required
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              fields.clear('name');
            }}
            placeholder="e.g. Web shop"
            {...fields.describe('name')}
          />
          {fields.message('name')}
        </label>
        <button type="submit" className="button button-primary" disabled={busy}>
          {busy ? 'Creating…' : 'Create project'}
        </button>
      </form>
      {projects === null ? (
        <Skeleton what="projects" />
      ) : projects.length === 0 ? (
        <div className="empty">
          <p>No projects yet. A project groups the events of one app or service.</p>
        </div>
      ) : (
        <ul className="project-list">
          {projects.map((project) => (
            <li key={project.id} className="card project-item">
              <Link href={`/p/${project.id}`} className="project-link">
                {project.name}
              </Link>
              <span className="muted small">
                <code>{project.id}</code> · created <RelativeTime iso={project.createdAt} />
              </span>
              <ProjectActivitySummary projectId={project.id} activity={activity.get(project.id)} />
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
