import { DestinationsSection } from './settings/Destinations.tsx';
import { HooksSection } from './settings/Hooks.tsx';
import { PushSection } from './settings/Push.tsx';

export function SettingsPage({ projectId }: { projectId: string }) {
  return (
    <main className="page page-narrow settings">
      <h1>Settings</h1>
      <HooksSection projectId={projectId} />
      <DestinationsSection projectId={projectId} />
      <PushSection projectId={projectId} />
    </main>
  );
}
