import { Card, CardContent, CardDescription, CardHeader, CardTitle } from './card.tsx';
import { Skeleton } from './skeleton.tsx';

/** The signed-in account as the API knows it (GET /api/me); presentational, the screen passes the profile. */
export function AccountDetails({ profile }: { profile: { email: string; role: string; createdAt: string } | null | undefined }) {
  if (!profile) {
    return (
      <Card aria-busy="true">
        <CardHeader>
          <span className="sr-only">Loading your profile...</span>
          <Skeleton className="h-6 w-40" />
          <Skeleton className="h-4 w-64 max-w-full" />
        </CardHeader>
      </Card>
    );
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Your account</CardTitle>
        <CardDescription>How you sign in and what you can do here.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_1fr] sm:gap-y-4">
          <dt className="text-muted-foreground">Email</dt>
          <dd className="mb-3 font-medium break-all sm:mb-0" data-testid="me-email">
            {profile.email}
          </dd>
          <dt className="text-muted-foreground">Role</dt>
          <dd className="mb-3 capitalize sm:mb-0" data-testid="me-role">
            {profile.role}
          </dd>
          <dt className="text-muted-foreground">Member since</dt>
          <dd>
            <time dateTime={profile.createdAt}>{new Date(profile.createdAt).toLocaleDateString('en-GB', { dateStyle: 'long' })}</time>
          </dd>
        </dl>
      </CardContent>
    </Card>
  );
}
