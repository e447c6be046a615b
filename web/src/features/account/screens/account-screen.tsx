import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { signOutUser } from '@/lib/auth.ts';
import { useMe } from '../api/get-me.ts';

/**
 * Proof that the whole path works (Cognito sign-in -> access token -> API -> contract). The dashboard shell of the
 * next issue replaces this screen.
 */
export function AccountScreen() {
  const navigate = useNavigate();
  const [signingOut, setSigningOut] = useState(false);

  async function signOut(): Promise<void> {
    setSigningOut(true);
    try {
      await signOutUser();
      toast.success('Signed out', { description: 'You have been successfully signed out.' });
      await navigate('/auth/login', { replace: true });
    } finally {
      setSigningOut(false);
    }
  }

  return (
    <div className="flex min-h-dvh flex-col bg-subtle">
      <header className="border-b bg-background">
        <div className="mx-auto flex h-14 max-w-3xl items-center justify-between gap-4 px-4">
          <p className="flex items-center gap-2 font-semibold tracking-tight">
            <span aria-hidden="true" className="grid size-7 place-items-center rounded-md bg-primary text-xs text-primary-foreground">
              CP
            </span>
            Course Platform
          </p>
          <Button variant="outline" size="sm" loading={signingOut} onClick={() => void signOut()}>
            {!signingOut && <LogOut aria-hidden="true" />}
            Sign Out
          </Button>
        </div>
      </header>
      <main className="mx-auto w-full max-w-3xl flex-1 px-4 py-8">
        <h1 className="text-2xl font-semibold tracking-tight">Welcome back!</h1>
        <p className="mt-1 text-sm text-muted-foreground">You are signed in. This is what the API knows about you.</p>
        <Profile />
      </main>
    </div>
  );
}

function Profile() {
  const me = useMe();

  if (me.isPending) {
    return (
      <Card className="mt-6" aria-busy="true">
        <CardHeader>
          <span className="sr-only">Loading your profile...</span>
          <Skeleton className="h-6 w-40" />
          <Skeleton className="h-4 w-64 max-w-full" />
        </CardHeader>
        <CardContent className="grid gap-3">
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-2/3" />
        </CardContent>
      </Card>
    );
  }

  if (me.isError) {
    return (
      <Card className="mt-6" role="alert">
        <CardHeader>
          <CardTitle>Your profile could not be loaded</CardTitle>
          <CardDescription>{me.error.message}</CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="outline" loading={me.isFetching} onClick={() => void me.refetch()}>
            Try again
          </Button>
        </CardContent>
      </Card>
    );
  }

  const { email, role, createdAt } = me.data;
  return (
    <Card className="mt-6">
      <CardHeader>
        <CardTitle>Your account</CardTitle>
        <CardDescription>From GET /api/me</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-4 text-sm sm:grid-cols-[8rem_1fr]">
          <dt className="text-muted-foreground">Email</dt>
          <dd className="-mt-3 font-medium break-all sm:mt-0" data-testid="me-email">
            {email}
          </dd>
          <dt className="text-muted-foreground">Role</dt>
          <dd className="-mt-3 sm:mt-0">
            <span className="inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-medium" data-testid="me-role" data-role={role}>
              {role}
            </span>
          </dd>
          <dt className="text-muted-foreground">Member since</dt>
          <dd className="-mt-3 sm:mt-0">
            <time dateTime={createdAt}>{new Date(createdAt).toLocaleDateString(undefined, { dateStyle: 'long' })}</time>
          </dd>
        </dl>
      </CardContent>
    </Card>
  );
}
