import { useQuery } from '@tanstack/react-query';
import { Clock, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router-dom';
import { subscriptionQueryOptions } from '../api/billing-queries.ts';
import { planLabel, trialDaysLeftText } from '../format.ts';

/**
 * A slim line above a creator's pages while the plan needs their attention: the trial's days left, or a failed
 * payment. Silent otherwise (loading, errors and settled plans are the dashboard panel's business).
 */
export function TrialBanner({ planPath }: { planPath: string }) {
  const { data } = useQuery(subscriptionQueryOptions());
  if (data?.status === 'trialing') {
    return (
      <div data-testid="trial-banner" className="mb-6 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-sky-200 bg-sky-50 px-4 py-2.5 text-sm text-sky-950">
        <Clock aria-hidden="true" className="size-4 shrink-0 text-sky-800" />
        <p className="flex-1">
          <strong className="font-semibold">{planLabel(data.tier)}:</strong> {trialDaysLeftText(data.trialDaysLeft)}.
        </p>
        <Link to={planPath} className="font-medium underline underline-offset-4 hover:no-underline">
          View plan
        </Link>
      </div>
    );
  }
  if (data?.status === 'past_due') {
    return (
      <div role="alert" data-testid="trial-banner" className="mb-6 flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-red-200 bg-red-50 px-4 py-2.5 text-sm text-red-950">
        <TriangleAlert aria-hidden="true" className="size-4 shrink-0 text-red-700" />
        <p className="flex-1">
          <strong className="font-semibold">Your last payment failed.</strong> Please update your payment method.
        </p>
        <Link to={planPath} className="font-medium underline underline-offset-4 hover:no-underline">
          Update payment method
        </Link>
      </div>
    );
  }
  return null;
}
