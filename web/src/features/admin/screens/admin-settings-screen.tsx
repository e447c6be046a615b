import { CreditCard, Mail, Sparkles } from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import { type ReactNode, useEffect } from 'react';
import { useLocation } from 'react-router-dom';
import { SEND_RATE_SHARE, SES_BATCH_MAX } from '@contracts/campaigns.ts';
import { CREDIT_TOP_UP, CREDIT_TOP_UP_PRICE_PENCE, LANDING_PAGE_COST, monthlyAllocation } from '@contracts/credits.ts';
import { planTypes, plans } from '@contracts/plans.ts';
import { DeleteAccountSection } from '@/components/delete-account-section.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { YourDataSection } from '@/components/your-data-section.tsx';
import { formatPounds } from '@/lib/format-money.ts';

/**
 * /dashboard/admin/settings: the platform's constants as the server applies them, read from the contracts the API
 * and the web app share (functions/contracts), so this page cannot disagree with what is charged or granted. They
 * change with a deploy, not here: the page says so. The dashboard's 'Billing Settings' opens it at `#billing` (the
 * plans and the AI credits creators are billed for): that section is scrolled to and focused. Then the admin's own
 * account, as on every role's profile (issue 37): "Your data" and "Delete my account".
 */
export function AdminSettingsScreen() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    target?.scrollIntoView?.({ block: 'start' });
    target?.focus({ preventScroll: true });
  }, [hash]);
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Settings" description="Plans, prices, AI credits and email sending, as the platform applies them. They change with a release." />
      <div className="grid gap-6 lg:grid-cols-2">
        <section id={BILLING_SECTION} tabIndex={-1} aria-label="Billing" className="grid scroll-mt-20 gap-6 outline-none *:min-w-0 lg:col-span-2 lg:grid-cols-2">
          <SettingsCard icon={CreditCard} title="Plans" description="Monthly subscriptions for creators, billed by Stripe in GBP.">
            {planTypes.map((type) => {
              const plan = plans[type];
              return (
                <Setting key={type} name={`${plan.name} plan`}>
                  {formatPounds(plan.pricePence)} a {plan.interval}
                  {plan.trialDays > 0 ? `, ${plan.trialDays}-day free trial (once per creator)` : ', no trial'}
                </Setting>
              );
            })}
          </SettingsCard>
          <SettingsCard icon={Sparkles} title="AI credits" description="Granted each billing period and spent by the AI tools.">
            {planTypes.map((type) => (
              <Setting key={type} name={`Monthly credits, ${plans[type].name}`}>
                {monthlyAllocation[type]} credits
              </Setting>
            ))}
            <Setting name="AI landing page">{LANDING_PAGE_COST} credits per generation (refunded if it fails)</Setting>
            <Setting name="Top-up pack">
              {CREDIT_TOP_UP} credits for {formatPounds(CREDIT_TOP_UP_PRICE_PENCE)}
            </Setting>
          </SettingsCard>
        </section>
        <SettingsCard icon={Mail} title="Email campaigns" description="Sent through Amazon SES by the campaign sender, every minute.">
          <Setting name="Batch size">Up to {SES_BATCH_MAX} recipients per SES call</Setting>
          <Setting name="Pace">At most {SEND_RATE_SHARE * 100}% of the SES account's send rate</Setting>
          <Setting name="Unsubscribe">One-click link and List-Unsubscribe headers on every campaign email</Setting>
          <Setting name="Suppression">Unsubscribed, bounced and complaining addresses are skipped</Setting>
        </SettingsCard>
      </div>
      <section aria-labelledby={YOUR_ACCOUNT_HEADING} className="grid max-w-2xl gap-6 *:min-w-0">
        <h2 id={YOUR_ACCOUNT_HEADING} className="text-lg font-semibold">
          Your account
        </h2>
        <YourDataSection />
        <DeleteAccountSection role="admin" />
      </section>
    </div>
  );
}

const YOUR_ACCOUNT_HEADING = 'your-account';

/** The section 'Billing Settings' links to (paths.admin.billing). */
export const BILLING_SECTION = 'billing';

function SettingsCard({ icon: Icon, title, description, children }: { icon: LucideIcon; title: string; description: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-base">
          <Icon aria-hidden="true" className="size-4 text-muted-foreground" />
          {title}
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="divide-y">{children}</dl>
      </CardContent>
    </Card>
  );
}

function Setting({ name, children }: { name: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 first:pt-0 last:pb-0 sm:grid-cols-[minmax(0,12rem)_minmax(0,1fr)] sm:gap-4">
      <dt className="text-sm text-muted-foreground">{name}</dt>
      <dd className="text-sm font-medium">{children}</dd>
    </div>
  );
}
