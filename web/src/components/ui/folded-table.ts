/*
 * Below 640 px a table folds into cards (as the Coupons and Sales lists do): each row a bordered card of two columns,
 * each cell under its column's name (the cell's data-label, shown by CSS; the header row stays for screen readers).
 */
export const folded = {
  table: 'max-sm:block',
  header: 'max-sm:sr-only',
  body: 'max-sm:grid max-sm:gap-3',
  row: 'max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-4 max-sm:gap-y-3 max-sm:rounded-lg max-sm:border! max-sm:bg-card max-sm:p-4 max-sm:hover:bg-card',
  cell: 'max-sm:block max-sm:min-w-0 max-sm:p-0 max-sm:before:mb-0.5 max-sm:before:block max-sm:before:text-xs max-sm:before:text-muted-foreground max-sm:before:content-[attr(data-label)]',
  unlabelled: 'max-sm:before:hidden',
} as const;
