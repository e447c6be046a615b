import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { creditsQueryOptions } from '@/features/billing/api/billing-queries.ts';
import { AiCreditsCard } from '@/features/billing/components/ai-credits-card.tsx';
import { LandingPageScreen, type CreditsState } from '@/features/landing/screens/landing-page-screen.tsx';

/**
 * /dashboard/creator/landing: the landing-page generator with the billing feature's AI credits in its side panel.
 * Composed here because it joins two features, which never import each other: the generator reads the balance
 * from the same credits query the card shows, and after every generation the query is updated (the answer's
 * balance at once, then a fresh read), so the card and the button's rule agree.
 */
export function CreatorLandingRoute() {
  const queryClient = useQueryClient();
  const credits = useQuery(creditsQueryOptions());
  const state: CreditsState = credits.isPending
    ? { status: 'loading' }
    : credits.isError
      ? { status: 'error' }
      : { status: 'ready', remaining: credits.data?.creditsRemaining ?? 0 };

  const onCreditsChanged = useCallback(
    (creditsRemaining?: number) => {
      const { queryKey } = creditsQueryOptions();
      if (creditsRemaining !== undefined) {
        queryClient.setQueryData(queryKey, (old) => (old ? { ...old, creditsRemaining } : old));
      }
      void queryClient.invalidateQueries({ queryKey });
    },
    [queryClient],
  );

  return <LandingPageScreen credits={state} creditsCard={<AiCreditsCard />} onCreditsChanged={onCreditsChanged} />;
}
