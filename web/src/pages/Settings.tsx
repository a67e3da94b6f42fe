import type { ReactNode } from 'react';
import { useIsOwner } from '../organization.tsx';
import { DeleteProjectSection } from './DeleteProject.tsx';
import { ProjectGeneralSection } from './ProjectGeneral.tsx';
import { DestinationsSection } from './settings/Destinations.tsx';
import { HooksSection } from './settings/Hooks.tsx';
import { PushSection } from './settings/Push.tsx';
import { SettingsNav, type SettingsSection, useSectionFromHash } from './settings/SettingsNav.tsx';
import './settings/settings.css';

export function SettingsPage({ projectId }: { projectId: string }) {
  // Members may not delete projects (the server refuses them): the section is for owners.
  const isOwner = useIsOwner();
  const sections: Array<SettingsSection & { content: ReactNode }> = [
    { id: 'general', label: 'General', content: <ProjectGeneralSection projectId={projectId} /> },
    { id: 'hooks', label: 'Incoming webhooks', content: <HooksSection projectId={projectId} /> },
    { id: 'destinations', label: 'Outgoing webhooks', content: <DestinationsSection projectId={projectId} /> },
    { id: 'push', label: 'Push notifications', content: <PushSection projectId={projectId} /> },
    ...(isOwner ? [{ id: 'delete', label: 'Delete project', content: <DeleteProjectSection projectId={projectId} /> }] : []),
  ];
  const current = useSectionFromHash(sections);
  return (
    <main className="page settings settings-page">
      <h1>Settings</h1>
      <div className="settings-layout">
        <SettingsNav sections={sections} current={current} />
        <div className="settings-sections">
          {sections.map((section) => (
            // Each section is addressable (#hooks...) and takes the focus when its link is followed.
            <div key={section.id} id={section.id} className="settings-anchor" tabIndex={-1}>
              {section.content}
            </div>
          ))}
        </div>
      </div>
    </main>
  );
}
