import { type FormEvent, useId, useState } from 'react';
import { describeError } from '../../api.ts';
import { ErrorBanner } from '../../components/ErrorBanner.tsx';
import { useFieldErrors } from '../../components/FieldError.tsx';
import * as api from '../../generated/index.ts';
import type { CreatedKey, Project } from '../../types.ts';
import { ACCESS_CHOICES, type KeyAccess, accessLabel, projectNames, readOrigins } from './keyScope.ts';

/** The origins part of the summary: where web pages may use the key, or that none may. */
function originsSummary(read: ReturnType<typeof readOrigins>): string {
  if ('error' in read) return '';
  return read.origins ? `, usable from web pages on ${read.origins.join(', ')}` : ', kept on servers (no web page may use it)';
}

interface CreateKeyFormProps {
  projects: Project[] | null;
  onCreated: (key: CreatedKey) => void;
}

/**
 * A new key and its scope (extensions.md, "Scoped API keys"): what it may do, which projects it
 * sees, and for ingest keys the web pages allowed to use it. The server has the last word: a
 * refusal is shown in its own words.
 */
export function CreateKeyForm({ projects, onCreated }: CreateKeyFormProps) {
  const id = useId();
  const [name, setName] = useState('');
  const [access, setAccess] = useState<KeyAccess>('full');
  const [everyProject, setEveryProject] = useState(true);
  const [chosen, setChosen] = useState<string[]>([]);
  const [originsText, setOriginsText] = useState('');
  const [creating, setCreating] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const fields = useFieldErrors({ name: ['name'], projects: ['projects'], origins: ['origins'] });

  const toggleProject = (projectId: string, on: boolean) => {
    setChosen((list) => (on ? [...list, projectId] : list.filter((candidate) => candidate !== projectId)));
    fields.clear('projects');
  };

  const create = async (event: FormEvent) => {
    event.preventDefault();
    fields.clear();
    setRefusal(null);
    if (!everyProject && chosen.length === 0) return fields.set('projects', 'Choose at least one project, or every project.');
    const read = access === 'ingest' ? readOrigins(originsText) : { origins: null };
    if ('error' in read) return fields.set('origins', read.error);
    setCreating(true);
    try {
      const body = { name: name.trim() || null, access, projects: everyProject ? null : chosen, origins: read.origins };
      onCreated(await api.createKey({ body }));
      // Nothing of this key carries over to the next one: a new key starts from the defaults.
      setName('');
      setAccess('full');
      setEveryProject(true);
      setChosen([]);
      setOriginsText('');
    } catch (failure) {
      // An origin the server refuses is named in its message ("… is not a browser origin").
      const message = describeError(failure);
      if (/browser origin/.test(message)) fields.set('origins', message);
      else if (!fields.show(failure)) setRefusal(message);
    } finally {
      setCreating(false);
    }
  };

  return (
    <form className="card key-form" onSubmit={(e) => void create(e)} aria-label="Create an API key" noValidate>
      <label className="field">
        <span>Name (optional)</span>
        <input
          name="keyName"
          value={name}
          maxLength={100}
          placeholder="e.g. CI deploys"
          onChange={(e) => {
            setName(e.target.value);
            fields.clear('name');
          }}
          {...fields.describe('name')}
        />
        {fields.message('name')}
      </label>
      <fieldset className="key-fieldset">
        <legend>Access</legend>
        {ACCESS_CHOICES.map((choice) => (
          <label key={choice.value} className="choice">
            <input type="radio" name="access" value={choice.value} checked={access === choice.value} onChange={() => setAccess(choice.value)} />
            <span>
              <strong>{choice.label}</strong> <span className="muted">{choice.hint}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset className="key-fieldset" {...fields.describe('projects')}>
        <legend>Projects</legend>
        <label className="choice">
          <input type="radio" name="projectScope" checked={everyProject} onChange={() => setEveryProject(true)} />
          <span>Every project, including projects created later</span>
        </label>
        <label className="choice">
          <input type="radio" name="projectScope" checked={!everyProject} onChange={() => setEveryProject(false)} />
          <span>Only the projects chosen below</span>
        </label>
        {!everyProject && (
          <div className="key-projects" role="group" aria-label="Projects this key may use">
            {projects?.length === 0 && <p className="muted">There are no projects yet.</p>}
            {projects?.map((project) => (
              <label key={project.id} className="choice">
                <input type="checkbox" name="projects" checked={chosen.includes(project.id)} onChange={(e) => toggleProject(project.id, e.target.checked)} />
                <span>{project.name}</span>
              </label>
            ))}
          </div>
        )}
        {fields.message('projects')}
      </fieldset>
      {access === 'ingest' && (
        <label className="field">
          <span>Browser origins (optional)</span>
          <textarea
            name="origins"
            rows={3}
            value={originsText}
            placeholder="https://app.example.com"
            aria-describedby={fields.errors.origins ? undefined : `${id}-origins-hint`}
            onChange={(e) => {
              setOriginsText(e.target.value);
              fields.clear('origins');
            }}
            {...fields.describe('origins')}
          />
          <small id={`${id}-origins-hint`} className="muted">
            One a line: scheme, host and optional port. Web pages on these origins may send events with this key, which is then public; leave empty for a key
            kept on servers.
          </small>
          {fields.message('origins')}
        </label>
      )}
      <p className="key-summary" data-testid="key-summary" aria-live="polite">
        This key will have <strong>{accessLabel(access)}</strong> access to{' '}
        <strong>{everyProject ? 'every project' : chosen.length ? projectNames(chosen, projects) : 'no project yet'}</strong>
        {access === 'ingest' && originsSummary(readOrigins(originsText))}.
      </p>
      <ErrorBanner what="The key was not created" error={refusal} testId="key-refused" />
      <div>
        <button type="submit" className="button button-primary" disabled={creating}>
          {creating ? 'Creating…' : 'Create API key'}
        </button>
      </div>
    </form>
  );
}
