import type { RouteObject } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';
import { requireSession } from '@/lib/session-guards.ts';

/**
 * Where the payment provider sends the browser back (signed-in users only). The billing area of the creator
 * dashboard is composed by app/ (it combines this feature with the pricing cards).
 */
export const billingRoutes: RouteObject[] = [
  {
    path: paths.checkoutSuccess,
    loader: requireSession,
    lazy: () => import('./screens/checkout-success-screen.tsx').then((m) => ({ Component: m.CheckoutSuccessScreen })),
  },
];
