import { Check, Sparkles } from 'lucide-react';
import { plans } from '@contracts/plans.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { formatPounds } from '@/lib/format-money.ts';
import { requestUpgrade } from '@/lib/upgrade-requests.ts';
import { affiliatesMessages as m } from '../affiliates-messages.ts';

/**
 * What a creator off the Pro plan sees instead of 'Add affiliate': what Pro unlocks here, and 'Upgrade to Pro', which
 * opens the creator area's upgrade path (Pro's checkout, or the billing portal for a subscriber).
 */
export function ProPlanCard({ hasAffiliates }: { hasAffiliates: boolean }) {
  return (
    // Not a named region: Playwright matches names by substring, and the table's region is 'Affiliates'.
    <Card data-testid="pro-plan-card" className="border-primary/30">
      <CardHeader className="gap-2 px-4 sm:px-6">
        <div className="flex items-center gap-2">
          <Sparkles aria-hidden="true" className="size-5 shrink-0 text-primary" />
          <CardTitle className="text-lg">
            {m.plan.title}
          </CardTitle>
        </div>
        <CardDescription>{m.plan.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4 px-4 sm:px-6">
        <ul className="grid gap-2 text-sm">
          {m.plan.unlocks.map((line) => (
            <li key={line} className="flex gap-2">
              <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-700" />
              {line}
            </li>
          ))}
        </ul>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <Button onClick={() => requestUpgrade({ plan: 'pro', reason: `${m.plan.title}. ${m.plan.description}` })}>{m.plan.upgrade}</Button>
          <span className="text-sm text-muted-foreground">
            {plans.pro.name} is {formatPounds(plans.pro.pricePence)} a month.
          </span>
        </div>
        {hasAffiliates && <p className="text-sm text-muted-foreground">{m.plan.earlier}</p>}
      </CardContent>
    </Card>
  );
}
