// npm test runs this file in one pass only: it checks the dashboard's own code, which no store changes (decision 230).
// The Audit log page's words (web/src/pages/audit/auditWords.ts): its action filter offers every
// action the server records, and names actors as the page shows them.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { AUDIT_ACTIONS, actionWords, actorMatches, actorWords } from '../../web/src/pages/audit/auditWords.ts';
import type { AuditEntry } from '../../web/src/types.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The actions of the server's `AuditAction` type, read from its source: it exists only as a type. */
function serverActions(): string[] {
  const source = fs.readFileSync(path.join(ROOT, 'src/features/audit/recordAudit.ts'), 'utf8');
  const union = /type AuditAction =([^;]+);/.exec(source)?.[1] ?? '';
  return [...union.matchAll(/'([a-z_.]+)'/g)].map((match) => match[1]!);
}

const entry = (actor: AuditEntry['actor']): AuditEntry => ({ id: 'a1', at: '2026-11-26T10:00:00.000Z', actor, action: 'key.create', target: null, ip: null });

describe('audit log words', () => {
  it('offers every action the server records, in its order, each once', () => {
    const actions = serverActions();
    assert.ok(actions.length >= 24, 'the union was read');
    assert.deepEqual(
      AUDIT_ACTIONS.map(([action]) => action),
      actions,
    );
  });

  it('shows an unknown action as the server wrote it', () => {
    assert.equal(actionWords('member.remove'), 'Member removed');
    assert.equal(actionWords('something.new'), 'something.new');
  });

  it('names every kind of actor, and filters by label or kind, any case', () => {
    assert.deepEqual(actorWords(null), { label: 'Nobody signed in', kind: 'visitor' });
    assert.deepEqual(actorWords({ kind: 'operator', id: null, label: null }), { label: 'Command line', kind: 'operator' });
    assert.deepEqual(actorWords({ kind: 'user', id: 'u1', label: 'ada@example.com' }), { label: 'ada@example.com', kind: 'dashboard user' });
    assert.deepEqual(actorWords({ kind: 'key', id: 'k1', label: 'ev_abc123def-' }), { label: 'ev_abc123def-', kind: 'API key' });
    assert.equal(actorMatches(entry({ kind: 'user', id: 'u1', label: 'ada@example.com' }), ' ADA '), true);
    assert.equal(actorMatches(entry({ kind: 'key', id: 'k1', label: 'CI' }), 'api key'), true);
    assert.equal(actorMatches(entry(null), 'ada'), false);
    assert.equal(actorMatches(entry(null), ''), true);
  });
});
