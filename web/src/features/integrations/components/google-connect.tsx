import { useMutation } from '@tanstack/react-query';
import { CircleAlert, CircleCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { googleConnectAnswer, googleConsentReasons } from '@contracts/integrations.ts';
import { Button } from '@/components/ui/button.tsx';
import { apiClient } from '@/lib/api-client.ts';
import { ApiError } from '@/lib/api-error.ts';

type Reason = (typeof googleConsentReasons)[number];

/** What the creator reads after Google sent them back (`?google=connected` or `?google=error&reason=`). */
export const googleConnectMessages = {
  connected: 'Google Calendar is connected. Live sessions you schedule with Google get a Google Meet link.',
  reasons: {
    access_denied: 'Google Calendar was not connected: access was not allowed on Google’s screen.',
    refused: 'Google refused the connection. Try connecting Google Calendar again.',
    unavailable: 'Google could not be reached. Try connecting Google Calendar again in a few minutes.',
    invalid_state: 'That Google sign-in could not be checked. Connect Google Calendar again from this page.',
    expired: 'That Google sign-in took too long. Connect Google Calendar again.',
  } satisfies Record<Reason, string>,
  startFailed: 'Google Calendar could not be opened. Check your connection and try again.',
} as const;

const reasonOf = (value: string | null): Reason => (googleConsentReasons as readonly string[]).includes(value ?? '') ? (value as Reason) : 'refused';

/**
 * "Connect Google Calendar" (issue 30, decision 0047): asks the API for Google's consent screen and goes there; Google
 * sends the creator back to this page with `?google=...`, read once into the message under the button (and dropped from
 * the address, so a reload does not say it again). Once the creator has consented (`consented`, from the saved
 * settings) it reads "Reconnect Google Calendar": the same consent again, for another account or a revoked grant.
 */
export function GoogleConnect({ consented = false, go = (url: string) => window.location.assign(url) }: { consented?: boolean; go?: (url: string) => void }) {
  const [params, setParams] = useSearchParams();
  const [returned, setReturned] = useState<{ ok: boolean; text: string } | undefined>();

  useEffect(() => {
    const result = params.get('google');
    if (result === null) return;
    setReturned(result === 'connected' ? { ok: true, text: googleConnectMessages.connected } : { ok: false, text: googleConnectMessages.reasons[reasonOf(params.get('reason'))] });
    const rest = new URLSearchParams(params);
    rest.delete('google');
    rest.delete('reason');
    setParams(rest, { replace: true });
  }, [params, setParams]);

  const connect = useMutation({
    mutationFn: () => apiClient.post('/api/integrations/google/connect', googleConnectAnswer, { body: { returnUrl: `${window.location.origin}${window.location.pathname}` } }),
    onSuccess: ({ url }) => go(url),
  });

  const failure = connect.isError
    ? connect.error instanceof ApiError && connect.error.status >= 400 && connect.error.status < 500
      ? connect.error.message
      : googleConnectMessages.startFailed
    : undefined;

  return (
    <div className="grid gap-3">
      <div>
        <Button type="button" variant="outline" loading={connect.isPending || connect.isSuccess} onClick={() => connect.mutate()} className="w-full sm:w-auto">
          {consented ? 'Reconnect Google Calendar' : 'Connect Google Calendar'}
        </Button>
      </div>
      <p className="text-sm text-muted-foreground">Google asks you to allow access to your calendar events, then brings you back here.</p>
      {returned && !failure && (
        <p role="status" className={`flex items-start gap-2 text-sm ${returned.ok ? 'text-emerald-700' : 'text-destructive'}`}>
          {returned.ok ? <CircleCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0" /> : <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />}
          {returned.text}
        </p>
      )}
      {failure && (
        <p role="alert" className="flex items-start gap-2 text-sm text-destructive">
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          {failure}
        </p>
      )}
    </div>
  );
}
