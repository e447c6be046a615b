import { ShoppingBag } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { paths } from '@/lib/paths.ts';
import { salesMessages as m } from '../sales-messages.ts';

/** A creator who has never sold: what a first sale takes, and the way to their courses. Both tabs show it. */
export function NoSalesYet() {
  return (
    <EmptyState
      icon={ShoppingBag}
      title={m.noSales.title}
      action={
        <Button asChild variant="outline">
          <Link to={paths.creator.courses}>{m.noSales.action}</Link>
        </Button>
      }
    >
      {m.noSales.description}
    </EmptyState>
  );
}
