import { Lock, Sparkles } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { requiredPlan, type FeatureKey } from '@contracts/entitlements.ts';
import { plans, type PlanType } from '@contracts/plans.ts';
import { Button, type ButtonProps } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog.tsx';
import { useEntitlements } from '@/lib/entitlements.ts';
import { formatPounds } from '@/lib/format-money.ts';
import { paths } from '@/lib/paths.ts';
import { onUpgradeRequest, requestUpgrade, type UpgradeRequest } from '@/lib/upgrade-requests.ts';
import { cn } from '@/lib/utils.ts';

/** The mark of a Pro-only control: a lock and 'Pro'. */
export function ProBadge({ className }: { className?: string }) {
  return (
    <span className={cn('inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-950', className)} data-testid="pro-lock">
      <Lock aria-hidden="true" className="size-3" />
      Pro
    </span>
  );
}

/** What the upgrade dialog's buttons do: composed in by app/ from the billing and marketing features' hooks. */
export interface UpgradeActions {
  /** The hosted checkout of a plan (a creator without a live subscription). */
  checkout: (plan: PlanType) => void;
  /** The billing portal, where a subscriber changes plan. */
  portal: () => void;
  busy: boolean;
}

const proPrice = `${plans.pro.name} is ${formatPounds(plans.pro.pricePence)} a month.`;

/**
 * The upgrade path, one dialog for the whole creator area: opened by a locked control or a PLAN_REQUIRED refusal
 * (lib/upgrade-requests.ts), it says why in words and offers the way: Pro's checkout for a creator without a live
 * subscription, the billing portal (where plans change) for a subscriber, the plan picker for a creator without a plan
 * who needs Starter's features.
 */
export function UpgradeHost({ actions }: { actions: UpgradeActions }) {
  const [request, setRequest] = useState<UpgradeRequest>();
  const { subscribed } = useEntitlements();
  useEffect(() => onUpgradeRequest(setRequest), []);
  const pro = request?.plan === 'pro';
  const close = () => setRequest(undefined);

  return (
    <Dialog open={request !== undefined} onOpenChange={(open) => !open && !actions.busy && close()}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle className="flex items-center gap-2">
            <Sparkles aria-hidden="true" className="size-5 shrink-0 text-primary" />
            {pro ? 'Upgrade to Pro' : 'Choose a plan'}
          </DialogTitle>
          <DialogDescription>{request?.reason}</DialogDescription>
        </DialogHeader>
        <p className="text-sm text-muted-foreground">
          {pro
            ? subscribed
              ? `${proPrice} You change your plan in the billing portal; what you made so far stays as it is.`
              : proPrice
            : 'Start with Starter (a free trial if you have not had one) or go straight to Pro.'}
        </p>
        <DialogFooter>
          <Button variant="outline" disabled={actions.busy} onClick={close}>
            Not now
          </Button>
          {!pro ? (
            <Button asChild>
              <Link to={paths.creator.dashboard} onClick={close}>
                See the plans
              </Link>
            </Button>
          ) : subscribed ? (
            <Button loading={actions.busy} onClick={actions.portal}>
              {actions.busy ? 'Opening...' : 'Change plan in billing'}
            </Button>
          ) : (
            <Button loading={actions.busy} onClick={() => actions.checkout('pro')}>
              {actions.busy ? 'Processing...' : 'Upgrade to Pro'}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** The words of a lock: what needs which plan. */
export const lockReason = (feature: FeatureKey, action: string): string =>
  requiredPlan(feature) === 'pro' ? `${capitalise(action)} is part of the Pro plan.` : `Choose a plan to ${action}: your plan has ended or you have not chosen one yet.`;

const capitalise = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * One control behind a plan feature. While the plan includes it (or is still loading: the server stays the wall),
 * the control itself. Otherwise, for a Pro feature, the same label with the lock and 'Pro', opening the upgrade
 * dialog with the reason; for a Starter feature (a creator without a plan), 'Choose a plan to <action>', to the plan
 * picker on the dashboard. Never a control that fails on click.
 */
export function PlanGate({
  feature,
  label,
  action,
  reason,
  children,
  variant = 'outline',
  size,
  className,
}: {
  feature: FeatureKey;
  /** The control's own label (shown, locked, for a Pro feature). */
  label: string;
  /** What the control does, as words after 'Choose a plan to ...' ('create courses'). */
  action: string;
  /** Why it is locked, in words (default: '<Action> is part of the Pro plan.'). */
  reason?: string;
  children: ReactNode;
  variant?: ButtonProps['variant'];
  size?: ButtonProps['size'];
  className?: string;
}) {
  const entitlements = useEntitlements();
  if (!entitlements.locked(feature)) return <>{children}</>;
  if (requiredPlan(feature) === 'starter') {
    return (
      // Long words on a narrow card: the label wraps rather than sticking out.
      <Button asChild variant={variant} size={size} className={cn('h-auto min-h-8 max-w-full py-2 whitespace-normal', className)}>
        <Link to={paths.creator.dashboard}>Choose a plan to {action}</Link>
      </Button>
    );
  }
  return (
    <Button variant={variant} size={size} className={className} onClick={() => requestUpgrade({ plan: 'pro', reason: reason ?? lockReason(feature, action) })}>
      {label} <ProBadge />
    </Button>
  );
}

/**
 * A refusal that a plan lifts (a 403 PLAN_REQUIRED, or a limit found before sending), inside a form: the reason and
 * the upgrade path. Outside the creator area (a leader's screen) nobody offers the upgrade: the reason stands alone.
 */
export function PlanRequiredNote({
  plan,
  reason,
  upgradable = true,
  announce = true,
}: {
  plan: PlanType;
  reason: string;
  upgradable?: boolean;
  /** A refusal just made is announced (an alert); a standing notice is not. */
  announce?: boolean;
}) {
  return (
    <div role={announce ? 'alert' : 'note'} className="flex flex-wrap items-start gap-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
      <Lock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <p className="min-w-0 flex-1 basis-48 [overflow-wrap:anywhere]">{reason}</p>
      {upgradable && (
        <Button type="button" size="sm" variant="outline" onClick={() => requestUpgrade({ plan, reason })}>
          {plan === 'pro' ? 'Upgrade to Pro' : 'Choose a plan'}
        </Button>
      )}
    </div>
  );
}

/** A page (or a part of one) that a plan unlocks: what it is, why it is locked, and the upgrade path. */
export function PlanRequiredCard({ title, reason, plan = 'pro' }: { title: string; reason: string; plan?: PlanType }) {
  return (
    <Card data-testid="plan-required-card" className="border-primary/30">
      <CardHeader className="gap-2 px-4 sm:px-6">
        <div className="flex flex-wrap items-center gap-2">
          <Sparkles aria-hidden="true" className="size-5 shrink-0 text-primary" />
          <CardTitle className="text-lg">{title}</CardTitle>
          {plan === 'pro' && <ProBadge />}
        </div>
        <CardDescription>{reason}</CardDescription>
      </CardHeader>
      <CardContent className="px-4 sm:px-6">
        {plan === 'pro' ? (
          <Button onClick={() => requestUpgrade({ plan, reason })}>Upgrade to Pro</Button>
        ) : (
          <Button asChild>
            <Link to={paths.creator.dashboard}>Choose a plan</Link>
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
