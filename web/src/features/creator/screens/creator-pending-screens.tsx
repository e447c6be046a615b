import { ChartBar } from 'lucide-react';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';

// Sidebar entries whose real content arrives with later issues: each names what will appear here.

export function CreatorAnalyticsScreen() {
  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Analytics" description="How your courses and sales perform." />
      <EmptyState icon={ChartBar} title="No analytics yet">
        Enrolments, completion, revenue per course and sales from coupons and affiliates will be charted here.
      </EmptyState>
    </div>
  );
}
