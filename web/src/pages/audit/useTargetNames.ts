import { useEffect, useMemo, useState } from 'react';
import * as api from '../../generated/index.ts';
import { useProjects } from '../../projects.tsx';
import type { ApiKey, AuditEntry, Member } from '../../types.ts';

interface TargetName {
  name: string;
  /** Where the target lives in the dashboard; absent when it is gone. */
  href?: string;
  gone?: boolean;
}

/**
 * Names for the audit log's targets: members by email, keys by name, projects by name, each
 * linking to its page. A member no longer listed keeps the email the log shows for them as an
 * actor, so a removed member still reads as a person, not an id.
 */
export function useTargetNames(entries: AuditEntry[]): (target: NonNullable<AuditEntry['target']>) => TargetName | null {
  const { projects } = useProjects();
  const [members, setMembers] = useState<Member[] | null>(null);
  const [keys, setKeys] = useState<ApiKey[] | null>(null);
  useEffect(() => {
    api.listMembers().then(setMembers, () => setMembers([]));
    api.listKeys().then(setKeys, () => setKeys([]));
  }, []);
  const actorEmails = useMemo(() => {
    const emails = new Map<string, string>();
    for (const entry of entries) if (entry.actor?.kind === 'user' && entry.actor.id && entry.actor.label) emails.set(entry.actor.id, entry.actor.label);
    return emails;
  }, [entries]);
  return (target) => {
    if (target.type === 'member') {
      const member = members?.find((candidate) => candidate.id === target.id);
      if (member) return { name: member.email, href: '/members' };
      const email = actorEmails.get(target.id);
      return members && email ? { name: email, gone: true } : null;
    }
    if (target.type === 'key') {
      const key = keys?.find((candidate) => candidate.id === target.id);
      return key ? { name: key.name ?? `${key.prefix}…`, href: '/api' } : null;
    }
    if (target.type === 'project') {
      const project = projects?.find((candidate) => candidate.id === target.id);
      return project ? { name: project.name, href: `/p/${project.id}` } : null;
    }
    return null;
  };
}
