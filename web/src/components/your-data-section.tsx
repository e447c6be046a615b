import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { personalExportStarted, personalExportStatus } from '@contracts/personal-exports.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { toastError } from '@/components/ui/toaster.tsx';
import { apiClient } from '@/lib/api-client.ts';

/** What the section says where a test may look for it. */
export const yourDataMessages = {
  title: 'Your data',
  description: 'Download a copy of everything we hold about you, as one ZIP file: your records as JSON, and any files you handed in.',
  request: 'Download my data',
  requesting: 'Requesting...',
  preparing: 'Preparing your data. We will email you a link when it is ready; you can also wait here.',
  ready: 'Your data is ready.',
  download: 'Download ZIP',
  expired: 'Your last download link has expired.',
  again: 'Request a new copy',
  failed: 'Your data could not be requested',
};

const storageKey = 'personal-export-id';

/**
 * "Your data" on every profile page (issue 37 point 1): request an export, then its status from
 * GET /api/me/exports/{exportId} every few seconds while it is pending; ready with its link and when it stops working;
 * expired with a way to ask again. The export's id is kept in the browser so the status survives a reload.
 */
export function YourDataSection() {
  const [exportId, setExportId] = useState<string | null>(() => globalThis.localStorage?.getItem(storageKey) ?? null);
  const status = useQuery({
    queryKey: ['personal-export', exportId] as const,
    queryFn: ({ signal }) => apiClient.get(`/api/me/exports/${encodeURIComponent(exportId!)}`, personalExportStatus, { signal }),
    enabled: exportId !== null,
    refetchInterval: (query) => (query.state.data?.status === 'pending' ? 3000 : false),
    retry: false,
  });
  const request = useMutation({
    mutationFn: () => apiClient.post('/api/me/exports', personalExportStarted),
    onSuccess: ({ exportId: id }) => {
      globalThis.localStorage?.setItem(storageKey, id);
      setExportId(id);
    },
    onError: (error) => toastError(error, yourDataMessages.failed),
  });
  const state = exportId === null || status.isError ? 'none' : (status.data?.status ?? 'pending');
  const requestButton = (label: string) => (
    <Button type="button" onClick={() => request.mutate()} disabled={request.isPending}>
      {request.isPending ? yourDataMessages.requesting : label}
    </Button>
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle>{yourDataMessages.title}</CardTitle>
        <CardDescription>{yourDataMessages.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm" aria-live="polite">
        {state === 'none' && <div>{requestButton(yourDataMessages.request)}</div>}
        {state === 'pending' && <p data-testid="your-data-status">{yourDataMessages.preparing}</p>}
        {state === 'ready' && status.data?.url && (
          <>
            <p data-testid="your-data-status">
              {yourDataMessages.ready} The link works until{' '}
              <time dateTime={status.data.expiresAt}>{new Date(status.data.expiresAt!).toLocaleString('en-GB', { dateStyle: 'long', timeStyle: 'short' })}</time>.
            </p>
            <div>
              <Button asChild>
                <a href={status.data.url}>{yourDataMessages.download}</a>
              </Button>
            </div>
          </>
        )}
        {state === 'expired' && (
          <>
            <p data-testid="your-data-status">{yourDataMessages.expired}</p>
            <div>{requestButton(yourDataMessages.again)}</div>
          </>
        )}
      </CardContent>
    </Card>
  );
}
