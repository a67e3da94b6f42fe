import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { NavLink } from './TopBar.tsx';
import './projectTabs.css';

const TABS = [
  ['/', 'Feed'],
  ['/insights', 'Insights'],
  ['/users', 'Users'],
  ['/groups', 'Groups'],
  ['/charts', 'Charts'],
  ['/alerts', 'Alerts'],
  ['/funnels', 'Funnels'],
  ['/playground', 'Playground'],
  ['/settings', 'Settings'],
] as const;

/** Less than this many pixels hidden at an end is no reason to show a cue there. */
const SLACK = 2;

/**
 * The project's tabs. On a narrow screen the row scrolls sideways: a fade with an arrow marks each
 * end that has tabs beyond it, and the active tab is scrolled into view whenever the page changes.
 */
export function ProjectTabs() {
  const nav = useRef<HTMLElement>(null);
  const [location] = useLocation();
  const [more, setMore] = useState({ before: false, after: false });

  const measure = useCallback(() => {
    const node = nav.current;
    if (!node) return;
    const before = node.scrollLeft > SLACK;
    const after = node.scrollLeft + node.clientWidth < node.scrollWidth - SLACK;
    setMore((current) => (current.before === before && current.after === after ? current : { before, after }));
  }, []);

  // Only the row scrolls (never the page, as scrollIntoView would), keeping a little of the
  // neighbouring tab visible so the cue still has something to point at.
  useLayoutEffect(() => {
    const node = nav.current;
    const active = node?.querySelector<HTMLElement>('.tab.active');
    if (!node || !active) return;
    const margin = 24;
    if (active.offsetLeft - margin < node.scrollLeft) node.scrollLeft = Math.max(0, active.offsetLeft - margin);
    else if (active.offsetLeft + active.offsetWidth + margin > node.scrollLeft + node.clientWidth)
      node.scrollLeft = active.offsetLeft + active.offsetWidth + margin - node.clientWidth;
    measure();
  }, [location, measure]);

  useEffect(() => {
    const node = nav.current;
    if (!node) return;
    const resize = new ResizeObserver(measure);
    resize.observe(node);
    return () => resize.disconnect();
  }, [measure]);

  const className = ['project-tabs', more.before && 'more-before', more.after && 'more-after'].filter(Boolean).join(' ');
  return (
    <div className={className} data-testid="project-tabs">
      <nav ref={nav} className="tabs" aria-label="Project" onScroll={measure}>
        {TABS.map(([href, label]) => (
          <NavLink key={href} href={href} className="tab">
            {label}
          </NavLink>
        ))}
      </nav>
    </div>
  );
}
