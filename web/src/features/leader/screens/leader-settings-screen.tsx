import { useQuery } from '@tanstack/react-query';
import { DeleteAccountSection } from '@/components/delete-account-section.tsx';
import { Card, CardContent, CardHeader } from '@/components/ui/card.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { YourDataSection } from '@/components/your-data-section.tsx';
import { leaderSettingsQueryOptions } from '../api/leader-queries.ts';
import { LeaderSettingsForm } from '../components/leader-settings-form.tsx';
import { leaderMessages } from '../leader-messages.ts';

const m = leaderMessages.settings;

/**
 * /dashboard/leader/settings: the leader's profile (name and organisation, which the team emails use) and whether
 * the weekly team progress email comes (GET and PUT /api/leader/settings); then "Your data" and "Delete my account"
 * (issue 37), as on every role's profile.
 */
export function LeaderSettingsScreen() {
  const settings = useQuery(leaderSettingsQueryOptions());
  return (
    <div className="grid max-w-2xl gap-6 *:min-w-0">
      <PageHeader title={m.title} description={m.description} />
      {settings.isPending ? (
        <SettingsSkeleton />
      ) : settings.isError ? (
        <LoadFailed message={m.loadFailed} onRetry={() => void settings.refetch()} retrying={settings.isRefetching} retryLabel={m.retry} />
      ) : (
        <LeaderSettingsForm saved={settings.data} />
      )}
      <YourDataSection />
      <DeleteAccountSection role="leader" />
    </div>
  );
}

/** The two cards' shape while the settings load: three fields, then the switch's row. */
function SettingsSkeleton() {
  return (
    <div role="status" className="grid gap-6">
      <span className="sr-only">{m.loading}</span>
      <Card>
        <CardHeader>
          <Skeleton className="h-5 w-24" />
          <Skeleton className="h-4 w-64 max-w-full" />
        </CardHeader>
        <CardContent className="grid gap-5">
          {[0, 1, 2].map((n) => (
            <div key={n} className="grid gap-2">
              <Skeleton className="h-4 w-28" />
              <Skeleton className="h-10 w-full" />
            </div>
          ))}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <Skeleton className="h-5 w-32" />
        </CardHeader>
        <CardContent className="flex items-center justify-between gap-4">
          <Skeleton className="h-10 w-3/4" />
          <Skeleton className="h-6 w-11 rounded-full" />
        </CardContent>
      </Card>
    </div>
  );
}
