import { cn } from '@/lib/utils.ts';
import { buttonVariants } from './button.tsx';
import { Spinner } from './spinner.tsx';

/** What LoadMore needs of a paged list's query (TanStack Query's infinite query gives all three). */
export interface PagedList {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/**
 * 'Load more' under a paged list, the one every list screen uses: gone when there is no next page; while the next page
 * loads it says "Loading…" with a spinner, busy and disabled. It is disabled with aria-disabled, not `disabled`, so a
 * keyboard user who pressed it keeps the focus on it (a disabled button drops the focus to the page) and presses it
 * again for the page after; a press while it loads does nothing. `onLoadMore` replaces the plain fetch (to say when
 * it fails, say).
 */
export function LoadMore({ pages, label = 'Load more', onLoadMore, className }: { pages: PagedList; label?: string; onLoadMore?: () => void; className?: string }) {
  if (!pages.hasNextPage) return null;
  const loading = pages.isFetchingNextPage;
  return (
    <button
      type="button"
      className={cn(buttonVariants({ variant: 'outline' }), 'justify-self-center aria-disabled:cursor-progress aria-disabled:opacity-60', className)}
      aria-disabled={loading || undefined}
      aria-busy={loading || undefined}
      onClick={() => {
        if (loading) return;
        if (onLoadMore) onLoadMore();
        else void pages.fetchNextPage();
      }}
    >
      {loading && <Spinner />}
      {loading ? 'Loading…' : label}
    </button>
  );
}
