import { queryOptions } from '@tanstack/react-query';
import { redirectResponse } from '@contracts/billing.ts';
import { payoutsResponse } from '@contracts/payouts.ts';
import { toastError } from '@/components/ui/toaster.tsx';
import { apiClient } from '@/lib/api-client.ts';
import { paths, urlOf } from '@/lib/paths.ts';
import { useLeaveFor } from '@/lib/use-leave-for.ts';

export const CONNECT_FAILED = 'Failed to open Stripe';

/** Where Stripe's onboarding sends the creator back: `return` when they leave it, `refresh` for a used or expired link. */
export const PAYOUTS_PARAM = 'payouts';
export const payoutsReturnUrl = (reason: 'return' | 'refresh') => urlOf(`${paths.creator.profile}?${PAYOUTS_PARAM}=${reason}`);

/** GET /api/creator/payouts: the creator's payment account as Stripe last said it is. */
export const payoutsQueryOptions = () =>
  queryOptions({
    queryKey: ['payouts'] as const,
    queryFn: ({ signal }) => apiClient.get('/api/creator/payouts', payoutsResponse, { signal }),
  });

/** 'Connect Stripe': POST /api/creator/payouts/connect, then Stripe's hosted onboarding, which returns to the profile. */
export function useConnectPayouts() {
  return useLeaveFor({
    request: () =>
      apiClient.post('/api/creator/payouts/connect', redirectResponse, {
        body: { returnUrl: payoutsReturnUrl('return'), refreshUrl: payoutsReturnUrl('refresh') },
      }),
    onError: (error) => toastError(error, CONNECT_FAILED),
  });
}

/** Stripe's requirement names in words a creator reads (the rest: the name's last part, spaced out). */
const requirementWords: Record<string, string> = {
  external_account: 'a bank account for your payouts',
  'tos_acceptance.date': "acceptance of Stripe's terms",
  'tos_acceptance.ip': "acceptance of Stripe's terms",
  'business_profile.url': 'your business website',
  'business_profile.mcc': 'your business category',
  'business_profile.product_description': 'what you sell',
  business_type: 'your business type',
  'individual.verification.document': 'an identity document',
  'individual.dob.day': 'your date of birth',
  'individual.address.line1': 'your address',
  'individual.phone': 'your phone number',
};

export const requirementLabel = (name: string): string =>
  requirementWords[name] ?? (name.split('.').pop() ?? name).replaceAll('_', ' ');

/** Requirements said once each (several fields can share one label). */
export const requirementLabels = (names: string[]): string[] => [...new Set(names.map(requirementLabel))];
