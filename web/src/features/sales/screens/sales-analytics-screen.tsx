import { useSearchParams } from 'react-router-dom';
import { analyticsWindows } from '@contracts/sales.ts';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs.tsx';
import type { AnalyticsWindow } from '../api/sales-queries.ts';
import { AnalyticsOverview } from '../components/analytics-overview.tsx';
import { SalesList } from '../components/sales-list.tsx';
import { salesMessages as m } from '../sales-messages.ts';

type View = 'overview' | 'sales';

/** `?days=90`: a period the screen knows, else the default 30 days. */
function windowOf(value: string | null): AnalyticsWindow {
  return analyticsWindows.find((days) => String(days) === value) ?? 30;
}

/**
 * /dashboard/creator/analytics: the creator's course sales. Overview (the period's revenue, sales, refunds, the chart and
 * revenue by course) and Sales (every order, with refunds). The tab and the period live in the address
 * (`?tab=sales`, `?days=90`), so a reload or a shared link opens the same view.
 */
export function SalesAnalyticsScreen() {
  const [params, setParams] = useSearchParams();
  const view: View = params.get('tab') === 'sales' ? 'sales' : 'overview';
  const days = windowOf(params.get('days'));

  const show = (changes: { tab?: View; days?: AnalyticsWindow }) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (changes.tab) {
          if (changes.tab === 'overview') next.delete('tab');
          else next.set('tab', changes.tab);
        }
        if (changes.days) {
          if (changes.days === 30) next.delete('days');
          else next.set('days', String(changes.days));
        }
        return next;
      },
      { replace: true },
    );

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title={m.title} description={m.description} />
      <Tabs value={view} onValueChange={(tab) => show({ tab: tab as View })}>
        <TabsList aria-label="Analytics views">
          <TabsTrigger value="overview">Overview</TabsTrigger>
          <TabsTrigger value="sales">Sales</TabsTrigger>
        </TabsList>
        <TabsContent value="overview" className="mt-6">
          <AnalyticsOverview days={days} onDaysChange={(next) => show({ days: next })} />
        </TabsContent>
        <TabsContent value="sales" className="mt-6">
          <SalesList />
        </TabsContent>
      </Tabs>
    </div>
  );
}
