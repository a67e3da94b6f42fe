import { Link } from 'wouter';
import { CopyButton } from '../components/CopyButton.tsx';
import { PageHeader } from '../components/PageHeader.tsx';
import { Skeleton } from '../components/Skeleton.tsx';
import { useIsOwner, useOrganization } from '../organization.tsx';
import './organization/organization.css';

const format = (n: number) => n.toLocaleString('en-US');

export function OrganizationPage() {
  const { info, reload } = useOrganization();
  const isOwner = useIsOwner();
  if (!info) {
    return (
      <main className="page page-narrow">
        <PageHeader title="Organization" />
        <Skeleton rows={2} what="the organization" />
        <button type="button" className="button button-small" onClick={reload}>
          Try again
        </button>
      </main>
    );
  }
  const cap = info.monthlyEventCap;
  const share = cap === null ? 0 : cap === 0 ? 1 : Math.min(1, info.usage.events / cap);
  return (
    <main className="page page-narrow">
      <PageHeader title="Organization" />
      <dl className="facts">
        <dt>Name</dt>
        <dd data-testid="organization-name">{info.name}</dd>
        <dt>Organization id</dt>
        <dd className="secret-line">
          <code data-testid="organization-id">{info.id}</code>
          <CopyButton text={info.id} what="Organization id" />
        </dd>
        <dt>Your role</dt>
        <dd>{info.role === 'owner' ? 'Owner' : 'Member'}</dd>
      </dl>
      <p className="muted small">
        Operators add people from a shell with <code>npx eventlog user create &lt;email&gt; --org {info.id}</code>
        {isOwner ? (
          <>
            ; owners can also <Link href="/members">invite them</Link>.
          </>
        ) : (
          '.'
        )}
      </p>

      <h2>Events this month ({info.usage.month}, UTC)</h2>
      {cap === null ? (
        <p data-testid="usage">{format(info.usage.events)} events. This organization has no monthly cap.</p>
      ) : (
        <>
          <p data-testid="usage">
            {format(info.usage.events)} of {format(cap)} events ({Math.round(share * 100)}%)
          </p>
          <progress className="usage-bar" max={1} value={share} aria-label="Events this month against the monthly cap" />
          <p className="muted small">Over the cap, incoming hooks answer 429 until the month ends (UTC).</p>
        </>
      )}

      {isOwner && (
        <p>
          <Link href="/api">Manage API keys</Link> · <Link href="/members">Manage members</Link>
        </p>
      )}
    </main>
  );
}
