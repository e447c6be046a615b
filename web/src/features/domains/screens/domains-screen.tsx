import { PageHeader } from '@/components/ui/page-header.tsx';
import { DomainsCard } from '../components/domains-card.tsx';
import { domainsMessages as m } from '../domains-messages.ts';

/** The Domains page (issue 32 point 2): the creator's custom domains. Branding is its own page (the branding feature's). */
export function DomainsScreen() {
  return (
    <div className="grid gap-6">
      <PageHeader title={m.title} description={m.description} />
      <DomainsCard />
    </div>
  );
}
