import type { AnalyticsWindow } from './api/sales-queries.ts';

const salesWindows: Record<AnalyticsWindow, string> = { 30: 'Last 30 days', 90: 'Last 90 days', 365: 'Last 12 months' };

/** What the creator's Analytics screen says, in one place. Tests import them too. */
export const salesMessages = {
  title: 'Analytics',
  description: 'Your course sales: revenue, refunds and every order. You keep 100% of each sale.',
  windows: salesWindows,
  loadingFigures: 'Loading your sales figures...',
  figuresFailed: 'Your sales figures could not be loaded.',
  loadingSales: 'Loading your sales...',
  salesFailed: 'Your sales could not be loaded.',
  retry: 'Try again',
  noSales: {
    title: 'No sales yet',
    description: 'Put a price on a course and connect your Stripe account: every sale then shows up here, with its revenue.',
    action: 'Go to My Courses',
  },
  quietWindow: (days: AnalyticsWindow) => ({
    title: `No sales in the ${salesWindows[days].toLowerCase()}`,
    description:
      days === 365 ? 'Your earlier sales are all on the Sales tab.' : 'Pick a longer period to see your earlier sales, or find every one of them on the Sales tab.',
  }),
  refund: {
    title: 'Refund this sale?',
    action: 'Refund sale',
    done: 'Sale refunded',
    failed: 'Failed to refund the sale',
  },
} as const;
