import { Ban, Mail, MailX, Send } from 'lucide-react';
import type { CampaignList } from '@contracts/campaigns.ts';
import { StatCard } from '@/components/ui/stat-card.tsx';

const number = (n: number) => n.toLocaleString('en-GB');

/** The summary cards: the platform's email totals from GET /api/admin/emails (counters, not samples). */
export function EmailSummaryCards({ totals }: { totals: CampaignList['totals'] }) {
  return (
    <section aria-label="Email figures" className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
      <StatCard label="Campaigns" value={number(totals.campaigns)} detail="Sent from this screen" icon={Mail} />
      <StatCard label="Emails Sent" value={number(totals.sent)} detail="Delivered to SES by all campaigns" icon={Send} />
      <StatCard label="Failed" value={number(totals.failed)} detail="Addresses SES did not accept" icon={MailX} />
      <StatCard
        label="Unsubscribed"
        value={number(totals.unsubscribed)}
        detail={`${number(totals.suppressed)} suppressed after a bounce or complaint`}
        icon={Ban}
      />
    </section>
  );
}
