import { LogOut, RotateCw } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { LoadingScreen } from '@/components/ui/loading-screen.tsx';
import { Separator } from '@/components/ui/separator.tsx';
import { SidebarInset, SidebarProvider, SidebarTrigger, useSidebar } from '@/components/ui/sidebar.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import type { FeatureKey } from '@contracts/entitlements.ts';
import { useEntitlements } from '@/lib/entitlements.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { paths, signInReturningTo } from '@/lib/paths.ts';
import { signOutAndForget } from '@/lib/session.ts';
import { useProfile } from '@/lib/session-hooks.ts';
import { AppSidebar } from '../components/app-sidebar.tsx';

/**
 * The signed-in frame of every dashboard page (SPEC.md "Dashboard shell"): the role's sidebar, a header with
 * 'Welcome back!', the email and 'Sign Out', and the page below. The route guards already checked the role; the
 * profile they loaded is cached, so this renders at once.
 */
export function DashboardLayout() {
  const profile = useProfile();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const signingOut = useRef(false);
  // The sidebar's locks: a creator's plan (other roles have none).
  const entitlements = useEntitlements({ enabled: profile.data?.role === 'creator' });

  // The session ended elsewhere (another tab signed out, the refresh token expired): back to sign-in, then here.
  useEffect(() => {
    if (profile.data === null && !signingOut.current) {
      void navigate(signInReturningTo(pathname + search), { replace: true });
    }
  }, [profile.data, navigate, pathname, search]);

  if (profile.isPending || profile.data === null) return <LoadingScreen />;
  if (profile.isError) {
    return (
      <main role="alert" className="flex min-h-dvh flex-col items-center justify-center gap-3 px-4 text-center">
        <h1 className="text-2xl font-semibold tracking-tight">Your profile could not be loaded</h1>
        <p className="max-w-md text-sm text-muted-foreground">{profile.error.message}</p>
        <Button variant="outline" loading={profile.isFetching} onClick={() => void profile.refetch()}>
          {!profile.isFetching && <RotateCw aria-hidden="true" />}
          Try again
        </Button>
      </main>
    );
  }

  const { email, role } = profile.data;
  return (
    <DashboardFrame role={role} email={email} signOut={<SignOutButton signingOut={signingOut} />} locked={entitlements.locked}>
      <Outlet />
    </DashboardFrame>
  );
}

/**
 * The frame itself: skip link, the role's sidebar, the header and `children` as the page. Also rendered at build
 * time (app/dashboard-shell.tsx) as the page-head's app shell, so both must stay one component: the shell is on
 * screen until React renders this same frame in its place, with nothing moving.
 */
export function DashboardFrame({
  role,
  email,
  signOut,
  locked,
  children,
}: {
  role: string;
  email: string;
  signOut: ReactNode;
  /** The creator's plan features the sidebar locks (none until the plan is known: the build-time shell locks nothing). */
  locked?: (feature: FeatureKey) => boolean;
  children: ReactNode;
}) {
  return (
    <SidebarProvider>
      <a
        href="#main-content"
        className="sr-only z-50 rounded-md bg-background px-3 py-2 text-sm font-medium focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:ring-2 focus:ring-ring"
      >
        Skip to content
      </a>
      <AppSidebar role={role} {...(locked ? { locked } : {})} />
      <SidebarInset>
        <CloseDrawerOnNavigation />
        <header className="sticky top-0 z-20 flex h-16 shrink-0 items-center gap-3 border-b bg-background/95 px-3 backdrop-blur md:px-6">
          <SidebarTrigger />
          <Separator orientation="vertical" className="h-6" />
          <div className="min-w-0 flex-1 leading-tight">
            <p className="text-sm font-semibold">Welcome back!</p>
            <p className="truncate text-xs text-muted-foreground" data-testid="user-email">
              {email}
            </p>
          </div>
          {signOut}
        </header>
        {/* The billing issue puts the trial banner here (above every page of a creator on trial). */}
        <main id="main-content" tabIndex={-1} className="mx-auto w-full max-w-7xl flex-1 px-4 py-6 outline-none md:px-6 md:py-8">
          {children}
        </main>
      </SidebarInset>
    </SidebarProvider>
  );
}

/** On a phone the drawer closes once an entry has been chosen. */
function CloseDrawerOnNavigation() {
  const { pathname } = useLocation();
  const { setOpenMobile } = useSidebar();
  useEffect(() => setOpenMobile(false), [pathname, setOpenMobile]);
  return null;
}

export function SignOutButton({ signingOut }: { signingOut: React.RefObject<boolean> }) {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  async function signOut(): Promise<void> {
    signingOut.current = true;
    setBusy(true);
    try {
      await signOutAndForget();
      toast.success('Signed out', { description: 'You have been successfully signed out.' });
      await navigate(paths.login, { replace: true });
    } catch (error) {
      signingOut.current = false;
      setBusy(false);
      toast.error('Sign out failed', { description: errorMessage(error) });
    }
  }

  return (
    <Button variant="outline" size="sm" loading={busy} onClick={() => void signOut()}>
      {!busy && <LogOut aria-hidden="true" />}
      Sign Out
    </Button>
  );
}
