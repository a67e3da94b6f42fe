import * as api from '../../generated/index.ts';
import type { Destination } from '../../types.ts';
import { type EditField, RecordEdit } from './RecordEdit.tsx';

const FIELDS: ReadonlyArray<EditField<'name' | 'url'>> = [
  { key: 'name', label: 'Destination name', inputName: 'editDestinationName', errors: ['name'] },
  { key: 'url', label: 'Destination URL', inputName: 'editDestinationUrl', errors: ['url', 'mailto', 'address'], mono: true },
];

/** Renames a destination or points it at a new URL, in its row (PATCH /api/destinations/:id). */
export function DestinationEdit(props: { destination: Destination; onSaved: (destination: Destination) => void; onCancel: () => void }) {
  const { destination, onSaved, onCancel } = props;
  const save = (body: api.UpdateDestinationBody) => api.updateDestination({ path: { destinationId: destination.id }, body });
  return <RecordEdit record={destination} fields={FIELDS} save={save} noun="Destination" testId="destination-edit" onSaved={onSaved} onCancel={onCancel} />;
}
