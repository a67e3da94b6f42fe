import type { ReactNode } from 'react';

/**
 * The top of every dashboard page: its one h1 (tests and screen readers find a page by it), the
 * page's main actions beside it and a line saying what the page is for.
 */
export function PageHeader({ title, subtitle, actions, titleId }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode; titleId?: string }) {
  return (
    <div className="page-head">
      <h1 id={titleId}>{title}</h1>
      {actions}
      {subtitle && <p className="muted">{subtitle}</p>}
    </div>
  );
}
