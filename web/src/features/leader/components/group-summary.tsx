import type { License } from '@contracts/licenses.ts';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { endDateLabel, sourceLabel } from '../license-format.ts';
import { LicenseStatusBadge } from './license-status-badge.tsx';
import { SeatsUsage } from './seats-usage.tsx';

/** The chosen group's licence: its course, status, how it came and when it ends, and 'N of M seats used'. */
export function GroupSummary({ license }: { license: License }) {
  const ends = license.expiresAt === null ? endDateLabel(license) : `Ends ${endDateLabel(license)}`;
  return (
    <Card>
      <CardHeader className="pb-4">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <CardTitle className="min-w-0 [overflow-wrap:anywhere]">{license.courseTitle}</CardTitle>
          <LicenseStatusBadge license={license} />
        </div>
        <p className="text-sm text-muted-foreground">
          {sourceLabel(license)} · {ends}
        </p>
      </CardHeader>
      <CardContent>
        <SeatsUsage license={license} className="max-w-md" />
      </CardContent>
    </Card>
  );
}
