import { PageHeader } from '@/components/ui/page-header.tsx';
import { ApiKeysCard } from '../components/api-keys-card.tsx';
import { WebhooksCard } from '../components/webhooks-card.tsx';
import { developersAvailability } from '../availability.ts';
import { developersMessages as m } from '../developers-messages.ts';

/** The Developers page (issue 31): the creator's API keys, then their webhook endpoints (once served: availability.ts), each card its own component. */
export function DevelopersScreen() {
  return (
    <div className="grid gap-6">
      <PageHeader title={m.title} description={m.description} />
      <ApiKeysCard />
      {developersAvailability.webhooks && <WebhooksCard />}
    </div>
  );
}
