import { useIsOwner } from '../organization.tsx';
import { DeleteProjectSection } from './DeleteProject.tsx';
import { ProjectGeneralSection } from './ProjectGeneral.tsx';
import { DestinationsSection } from './settings/Destinations.tsx';
import { HooksSection } from './settings/Hooks.tsx';
import { PushSection } from './settings/Push.tsx';

export function SettingsPage({ projectId }: { projectId: string }) {
  // Members may not delete projects (the server refuses them): the section is for owners.
  const isOwner = useIsOwner();
  return (
    <main className="page page-narrow settings">
      <h1>Settings</h1>
      <ProjectGeneralSection projectId={projectId} />
      <HooksSection projectId={projectId} />
      <DestinationsSection projectId={projectId} />
      <PushSection projectId={projectId} />
      {isOwner && <DeleteProjectSection projectId={projectId} />}
    </main>
  );
}
