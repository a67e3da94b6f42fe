import * as api from '../../generated/index.ts';
import type { Hook } from '../../types.ts';
import { type EditField, RecordEdit } from './RecordEdit.tsx';

const FIELDS: ReadonlyArray<EditField<'name' | 'category'>> = [
  { key: 'name', label: 'Webhook name', inputName: 'editHookName', errors: ['name'] },
  { key: 'category', label: 'Webhook default category', inputName: 'editHookCategory', errors: ['category'], maxLength: 100 },
];

/** Renames an incoming webhook or changes its default category, in its row; the URL stays. */
export function HookEdit({ hook, onSaved, onCancel }: { hook: Hook; onSaved: (hook: Hook) => void; onCancel: () => void }) {
  const save = (body: api.UpdateHookBody) => api.updateHook({ path: { hookId: hook.id }, body });
  return <RecordEdit record={hook} fields={FIELDS} save={save} noun="Incoming webhook" testId="hook-edit" onSaved={onSaved} onCancel={onCancel} />;
}
