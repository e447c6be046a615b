import { useQuery } from '@tanstack/react-query';
import { CreditCard } from 'lucide-react';
import { Link } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';
import { payoutsQueryOptions } from '../api/payouts-queries.ts';

/**
 * A slim line above My Courses while the creator cannot take payments yet: no Stripe account, or one Stripe still
 * needs details for. Silent while loading, on errors (the profile's section says those) and once payments work.
 */
export function PayoutsBanner() {
  const { data } = useQuery(payoutsQueryOptions());
  if (!data || data.status === 'enabled') return null;
  return (
    <div data-testid="payouts-banner" className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-amber-200 bg-amber-50 px-4 py-2.5 text-sm text-amber-950">
      <CreditCard aria-hidden="true" className="size-4 shrink-0 text-amber-800" />
      <p className="flex-1">
        {data.status === 'none' ? (
          <>
            <strong className="font-semibold">Connect Stripe to sell your courses.</strong> Buyers pay you directly and you keep 100%.
          </>
        ) : (
          <>
            <strong className="font-semibold">Finish setting up payments.</strong> Stripe still needs a few details before you can sell.
          </>
        )}
      </p>
      <Link to={`${paths.creator.profile}#payments`} className="font-medium underline underline-offset-4 hover:no-underline">
        {data.status === 'none' ? 'Set up payments' : 'Continue setup'}
      </Link>
    </div>
  );
}
