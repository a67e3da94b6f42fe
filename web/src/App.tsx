import { lazy, Suspense, useEffect, useState } from 'react';
import { Link, Redirect, Route, Router, Switch } from 'wouter';
import { ProjectTabs } from './components/ProjectTabs.tsx';
import { ShortcutSheet } from './components/ShortcutSheet.tsx';
import { Skeleton } from './components/Skeleton.tsx';
import { SkipLink, TopBar } from './components/TopBar.tsx';
import { LiveProvider, useLiveStatus } from './live.tsx';
import { AcceptPage } from './pages/Accept.tsx';
import { AlertsPage } from './pages/Alerts.tsx';
import { FiringAlertsBanner } from './pages/alerts/FiringAlertsBanner.tsx';
import { AccountPage } from './pages/Account.tsx';
import { ChooseInvitationPage } from './pages/ChooseInvitation.tsx';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/PasswordReset.tsx';
import { ApiKeysPage } from './pages/ApiKeys.tsx';
import { AuditLogPage } from './pages/AuditLog.tsx';
import { FeedPage } from './pages/Feed.tsx';
import { InsightsPage } from './pages/Insights.tsx';
import { MembersPage } from './pages/Members.tsx';
import { OrganizationPage } from './pages/Organization.tsx';
import { PlaygroundPage } from './pages/Playground.tsx';
import { ProjectsPage } from './pages/Projects.tsx';
import { SettingsPage } from './pages/Settings.tsx';
import { DisabledDestinationsWarning } from './pages/settings/DisabledDestinationsWarning.tsx';
import { SetupPage, SignInPage } from './pages/SignIn.tsx';
import { TransferPage } from './pages/Transfer.tsx';
import { UserProfilePage } from './pages/UserProfile.tsx';
import { UsersPage } from './pages/Users.tsx';
import { GroupsPage } from './pages/Groups.tsx';
import { GroupProfilePage } from './pages/GroupProfile.tsx';
import { OrganizationProvider } from './organization.tsx';
import { lastProject, ProjectsProvider, rememberProject, useProjects } from './projects.tsx';
import { useSession } from './session.tsx';
import { APP_BASE } from './paths.ts';

// Chart.js is the largest dependency: it loads only when the Charts tab opens.
const ChartsPage = lazy(() => import('./pages/Charts.tsx'));
const FunnelsPage = lazy(() => import('./pages/Funnels.tsx'));

export function App() {
  const { state, retry } = useSession();
  if (state.status === 'loading') {
    return (
      <div className="splash" aria-busy="true">
        <span className="brand-mark" aria-hidden="true" /> Loading Eventlog…
      </div>
    );
  }
  if (state.status === 'unreachable') {
    return (
      <main className="auth-page">
        <div className="card auth-card" role="alert">
          <h1>Eventlog is not reachable</h1>
          <p>{state.message}</p>
          <button type="button" className="button button-primary" onClick={retry}>
            Try again
          </button>
        </div>
      </main>
    );
  }
  const invitation = acceptToken();
  if (invitation) return <AcceptPage token={invitation} />;
  const reset = resetToken();
  if (reset) return <ResetPasswordPage token={reset} />;
  if (window.location.pathname.replace(/\/+$/, '') === `${APP_BASE}/forgot`) return <ForgotPasswordPage />;
  // After sign-in with OpenID Connect, when several organizations invited the email (decision 213).
  if (state.status === 'signedOut' && window.location.pathname.replace(/\/+$/, '') === `${APP_BASE}/signin/choose`) return <ChooseInvitationPage />;
  if (state.status === 'signedOut') {
    return state.setupNeeded ? <SetupPage /> : <SignInPage notice={state.notice} methods={state.signIn} />;
  }
  return <SignedInApp />;
}

/** The token of a password reset link (/app/reset/<token>), whoever is signed in. */
function resetToken(): string | undefined {
  return new RegExp(`^${APP_BASE}/reset/([^/]+)/?$`).exec(window.location.pathname)?.[1];
}

/** The token of an invitation link (/app/accept/<token>), whoever is signed in. */
function acceptToken(): string | undefined {
  const match = new RegExp(`^${APP_BASE}/accept/([^/]+)/?$`).exec(window.location.pathname);
  return match?.[1];
}

/**
 * The dashboard's home opens the remembered project. Rewriting the address before the first
 * render (not with a redirect after it) makes that project's feed the first request after the
 * session check; a project that is gone sends the feed back to the project list.
 */
function openRememberedProject(): void {
  const remembered = lastProject();
  const home = window.location.pathname.replace(/\/+$/, '') === APP_BASE;
  if (remembered && home) window.history.replaceState(null, '', `${APP_BASE}/p/${encodeURIComponent(remembered)}`);
}

function SignedInApp() {
  useState(openRememberedProject);
  return (
    <Router base={APP_BASE}>
      <OrganizationProvider>
        <ProjectsProvider>
          <Shell />
        </ProjectsProvider>
      </OrganizationProvider>
    </Router>
  );
}

function Shell() {
  return (
    <div className="shell">
      <SkipLink />
      <TopBar />
      <ShortcutSheet />
      <Switch>
        <Route path="/" component={Home} />
        <Route path="/projects" component={ProjectsPage} />
        <Route path="/api" component={ApiKeysPage} />
        <Route path="/members" component={MembersPage} />
        <Route path="/audit" component={AuditLogPage} />
        <Route path="/organization" component={OrganizationPage} />
        <Route path="/account" component={AccountPage} />
        <Route path="/transfer" component={TransferPage} />
        <Route path="/p/:projectId" nest>
          {(params) => <ProjectArea key={params.projectId} projectId={params.projectId} />}
        </Route>
        <Route>
          <main className="page">
            <h1>Page not found</h1>
            <p>
              <Link href="/">Go to your projects</Link>
            </p>
          </main>
        </Route>
      </Switch>
    </div>
  );
}

function Home() {
  const { projects } = useProjects();
  if (!projects) {
    return (
      <main className="page">
        <Skeleton what="projects" />
      </main>
    );
  }
  const remembered = lastProject();
  const target = projects.find((project) => project.id === remembered) ?? projects[0];
  return <Redirect to={target ? `/p/${target.id}` : '/projects'} replace />;
}

function ProjectArea({ projectId }: { projectId: string }) {
  const { projects } = useProjects();
  const project = projects?.find((candidate) => candidate.id === projectId);
  // Only a project known to exist is remembered as the one to open next time.
  useEffect(() => {
    if (project) rememberProject(project.id);
  }, [project]);
  useEffect(() => {
    document.title = project ? `${project.name} · Eventlog` : 'Eventlog';
  }, [project]);
  return (
    <LiveProvider projectId={projectId}>
      <div className="project-bar">
        <ProjectTabs />
        <LiveIndicator />
      </div>
      <DisabledDestinationsWarning projectId={projectId} />
      <FiringAlertsBanner projectId={projectId} />
      <Switch>
        <Route path="/">
          <FeedPage projectId={projectId} />
        </Route>
        <Route path="/users">
          <UsersPage projectId={projectId} />
        </Route>
        <Route path="/users/:userId">{(params) => <UserProfilePage projectId={projectId} userId={decodeURIComponent(params.userId)} />}</Route>
        <Route path="/groups">
          <GroupsPage projectId={projectId} />
        </Route>
        <Route path="/groups/:groupId">{(params) => <GroupProfilePage projectId={projectId} groupId={decodeURIComponent(params.groupId)} />}</Route>
        <Route path="/insights">
          <InsightsPage projectId={projectId} />
        </Route>
        <Route path="/charts">
          <Suspense
            fallback={
              <main className="page">
                <Skeleton rows={2} what="charts" />
              </main>
            }
          >
            <ChartsPage projectId={projectId} />
          </Suspense>
        </Route>
        <Route path="/alerts">
          <AlertsPage projectId={projectId} />
        </Route>
        <Route path="/funnels">
          <Suspense
            fallback={
              <main className="page">
                <Skeleton rows={2} what="funnels" />
              </main>
            }
          >
            <FunnelsPage projectId={projectId} />
          </Suspense>
        </Route>
        <Route path="/playground">
          <PlaygroundPage projectId={projectId} />
        </Route>
        <Route path="/settings">
          <SettingsPage projectId={projectId} />
        </Route>
        <Route>
          <Redirect to="/" replace />
        </Route>
      </Switch>
    </LiveProvider>
  );
}

function LiveIndicator() {
  const status = useLiveStatus();
  const label = status === 'open' ? 'Live' : status === 'connecting' ? 'Connecting…' : 'Reconnecting…';
  return (
    <span className={`live-indicator live-${status}`} role="status" title="Live updates from the server">
      <span className="live-dot" aria-hidden="true" />
      {label}
    </span>
  );
}
