import { type ReactNode, useEffect, useState } from 'react';
import { Link, useLocation, useRoute } from 'wouter';
import { useIsOwner } from '../organization.tsx';
import { useProjects } from '../projects.tsx';
import { useSession, useSignedIn } from '../session.tsx';
import { SnoozeMenu } from './SnoozeMenu.tsx';
import { useToast } from './Toasts.tsx';

/**
 * The first thing Tab reaches: past the header and the project tabs to the page itself. Every
 * page is one <main>; focusing it (not following a #hash) leaves the address alone.
 */
export function SkipLink() {
  // Every page renders its own <main>; whichever is on screen becomes the link's #main target,
  // focusable, so the link is a real skip link (axe: skip-link, region) without each page knowing.
  useEffect(() => {
    const mark = () => {
      const main = document.querySelector('main');
      if (main && main.id !== 'main') {
        document.getElementById('main')?.removeAttribute('id');
        main.id = 'main';
        main.tabIndex = -1;
      }
    };
    mark();
    const observer = new MutationObserver(mark);
    observer.observe(document.body, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return (
    <a
      href="#main"
      className="skip-link"
      onClick={(event) => {
        const main = document.querySelector('main');
        if (!main) return;
        event.preventDefault();
        main.setAttribute('tabindex', '-1');
        main.focus();
      }}
    >
      Skip to content
    </a>
  );
}

export function TopBar() {
  const session = useSignedIn();
  const { signOut } = useSession();
  const toast = useToast();
  const isOwner = useIsOwner();
  // On a phone the organization links and the account fold into a menu, so the header stays one row.
  const [menuOpen, setMenuOpen] = useState(false);
  const [location] = useLocation();
  useEffect(() => setMenuOpen(false), [location]);
  return (
    <header
      className={menuOpen ? 'topbar menu-open' : 'topbar'}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !menuOpen) return;
        setMenuOpen(false);
        event.currentTarget.querySelector<HTMLElement>('.menu-toggle')?.focus();
      }}
    >
      <Link href="/" className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <span className="brand-name">Eventlog</span>
      </Link>
      <ProjectSwitcher />
      <button
        type="button"
        className="button button-small menu-toggle"
        aria-expanded={menuOpen}
        aria-controls="topbar-menu"
        onClick={() => setMenuOpen((open) => !open)}
      >
        Menu
      </button>
      <div className="topbar-menu" id="topbar-menu">
        <nav className="global-nav" aria-label="Organization">
          <NavLink href="/projects">Projects</NavLink>
          <NavLink href="/organization">Organization</NavLink>
          {isOwner && <NavLink href="/members">Members</NavLink>}
          {isOwner && <NavLink href="/api">API keys</NavLink>}
          {isOwner && <NavLink href="/audit">Audit log</NavLink>}
          <NavLink href="/transfer">Export &amp; import</NavLink>
          <NavLink href="/account">Your account</NavLink>
        </nav>
        <div className="account">
          <SnoozeMenu />
          <span className="account-name" title={session.user.email}>
            {session.organization.name}
          </span>
          <button type="button" className="button button-small" onClick={() => void signOut().catch((error: unknown) => toast.error(error, 'Sign-out failed'))}>
            Sign out
          </button>
        </div>
      </div>
    </header>
  );
}

function ProjectSwitcher() {
  const { projects } = useProjects();
  const [location, navigate] = useLocation();
  const match = /^\/p\/([^/]+)(\/.*)?$/.exec(location);
  const current = match?.[1] ?? '';
  if (!projects || projects.length === 0) return null;
  return (
    <div className="switcher">
      <label htmlFor="project-switcher" className="visually-hidden">
        Project
      </label>
      <select
        id="project-switcher"
        value={current}
        onChange={(event) => {
          const id = event.target.value;
          if (id) navigate(`/p/${id}${match?.[2] ?? ''}`);
        }}
      >
        {!current && <option value="">Go to a project…</option>}
        {projects.map((project) => (
          <option key={project.id} value={project.id}>
            {project.name}
          </option>
        ))}
      </select>
    </div>
  );
}

export function NavLink({ href, className = '', children }: { href: string; className?: string; children: ReactNode }) {
  const [active] = useRoute(href);
  return (
    <Link href={href} className={`${className}${active ? ' active' : ''}`} aria-current={active ? 'page' : undefined}>
      {children}
    </Link>
  );
}
