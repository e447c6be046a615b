import type { License } from '@contracts/licenses.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { isEnded } from '../license-format.ts';

/** 'Active' or 'Ended' (also once the end date passed, before the daily job marks it). */
export function LicenseStatusBadge({ license }: { license: Pick<License, 'status' | 'expiresAt'> }) {
  return isEnded(license) ? (
    <Badge className="border-transparent bg-muted text-muted-foreground">Ended</Badge>
  ) : (
    <Badge className="border-transparent bg-emerald-100 text-emerald-900">Active</Badge>
  );
}
