import { type Json, type TemplateFields, clip, obj, str, unreadable } from './templateFields.ts';

/**
 * A GitHub webhook delivery (repository, organization or app hook). The event name comes from the
 * X-GitHub-Event header; the title is "<event> <action> in <repository> by <actor>", and the
 * description and link are the event's own where it has one (a pull request, an issue, a
 * release, a workflow run, a push's compare view), else the repository's. A failed workflow run
 * notifies; nothing else does, as GitHub events are mostly a record.
 */
export function githubEvent(payload: Json, eventHeader: string | undefined): TemplateFields {
  const event = eventHeader?.trim();
  if (!event) throw unreadable('github', 'the X-GitHub-Event header is missing');
  const repository = obj(payload.repository);
  const organization = obj(payload.organization);
  const where = str(repository.full_name) ?? str(organization.login) ?? 'GitHub';
  const login = str(organization.login);
  const whereUrl = str(repository.html_url) ?? (login ? `https://github.com/${login}` : null);
  const actor = str(obj(payload.sender).login);
  const action = str(payload.action);

  if (event === 'ping') {
    const hook = obj(payload.hook);
    const events = Array.isArray(hook.events) ? hook.events.join(', ') : null;
    return {
      title: `GitHub webhook connected: ${where}`,
      description: [str(payload.zen), events ? `Events: ${events}` : null].filter(Boolean).join('\n') || null,
      icon: '🔗',
      url: whereUrl,
      tags: tags({ event, repository: where }),
      notify: false,
    };
  }

  const detail = details(event, payload);
  const title = `${event}${action ? ` ${action}` : ''} in ${where}${actor ? ` by ${actor}` : ''}`;
  return {
    title,
    description: detail.description ? clip(detail.description) : null,
    icon: '🐙',
    url: detail.url ?? whereUrl,
    tags: tags({ event, action, repository: where, status: detail.status, branch: detail.branch }),
    notify: detail.notify ?? false,
  };
}

interface Detail {
  description?: string;
  url?: string;
  status?: string;
  branch?: string;
  notify?: boolean;
}

function details(event: string, payload: Json): Detail {
  switch (event) {
    case 'push': {
      const ref = str(payload.ref) ?? '';
      const branch = ref.replace(/^refs\/(heads|tags)\//, '');
      const commits = Array.isArray(payload.commits) ? payload.commits.map(obj) : [];
      const lines = commits.slice(0, 10).map((c) => `- ${(str(c.id) ?? '').slice(0, 7)} ${(str(c.message) ?? '').split('\n')[0]}`);
      if (commits.length > 10) lines.push(`- and ${commits.length - 10} more`);
      const head = `${commits.length} commit${commits.length === 1 ? '' : 's'} to ${branch || 'a ref'}${payload.forced === true ? ' (forced)' : ''}`;
      return { description: [head, ...lines].join('\n'), url: str(payload.compare), branch: branch || undefined };
    }
    case 'pull_request':
    case 'pull_request_review':
    case 'pull_request_review_comment': {
      const pr = obj(payload.pull_request);
      const state = pr.merged === true ? 'merged' : str(pr.state);
      const review = obj(payload.review);
      const comment = obj(payload.comment);
      const reviewState = str(review.state);
      const extra = reviewState ? `Review: ${reviewState}` : str(comment.body);
      return {
        description: [`#${numberText(pr.number)} ${str(pr.title) ?? ''}`.trim(), extra].filter(Boolean).join('\n'),
        url: str(comment.html_url) ?? str(review.html_url) ?? str(pr.html_url),
        status: state,
        branch: str(obj(pr.base).ref),
      };
    }
    case 'issues':
    case 'issue_comment': {
      const issue = obj(payload.issue);
      const comment = obj(payload.comment);
      return {
        description: [`#${numberText(issue.number)} ${str(issue.title) ?? ''}`.trim(), str(comment.body)].filter(Boolean).join('\n'),
        url: str(comment.html_url) ?? str(issue.html_url),
        status: str(issue.state),
      };
    }
    case 'release': {
      const release = obj(payload.release);
      return {
        description: [str(release.name) ?? str(release.tag_name), str(release.body)].filter(Boolean).join('\n'),
        url: str(release.html_url),
        status: release.prerelease === true ? 'prerelease' : release.draft === true ? 'draft' : 'published',
      };
    }
    case 'workflow_run':
    case 'workflow_job':
    case 'check_run':
    case 'check_suite': {
      const run = obj(payload[event]);
      const status = str(run.conclusion) ?? str(run.status);
      const name = str(run.display_title) ?? str(run.name) ?? str(obj(run.app).name);
      return {
        description: [name, status ? `Status: ${status}` : null].filter(Boolean).join('\n'),
        url: str(run.html_url) ?? str(run.details_url),
        status,
        branch: str(run.head_branch),
        notify: status === 'failure' || status === 'timed_out',
      };
    }
    case 'deployment_status': {
      const deployment = obj(payload.deployment);
      const status = obj(payload.deployment_status);
      return {
        description: [`Deployment to ${str(deployment.environment) ?? 'an environment'}`, str(status.description)].filter(Boolean).join('\n'),
        url: str(status.target_url) ?? str(status.log_url) ?? str(deployment.url),
        status: str(status.state),
        notify: status.state === 'failure' || status.state === 'error',
      };
    }
    default: {
      // Most events carry their subject under the event's own name, with a page on GitHub.
      const subject = obj(payload[event]);
      return { description: str(subject.title) ?? str(subject.name), url: str(subject.html_url) };
    }
  }
}

function tags(entries: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(entries)) if (value !== undefined) out[key] = value;
  return out;
}

/** A pull request's or issue's number as sent; anything else (a hand-made payload) reads "?". */
function numberText(value: unknown): string {
  return typeof value === 'number' || typeof value === 'string' ? String(value) : '?';
}
