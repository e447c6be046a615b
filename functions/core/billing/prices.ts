import type { PlanType } from '#contracts/plans.ts';
import { ValidationError } from '#core/errors.ts';

/** Stripe price ids of the catalogue, from configuration. */
export interface PriceIds {
  starter: string;
  pro: string;
  credits: string;
}

export const planOfPrice = (prices: PriceIds, priceId: string | null): PlanType | null =>
  priceId === prices.starter ? 'starter' : priceId === prices.pro ? 'pro' : null;

/**
 * Return addresses must be on the app's own origin: a checkout must never send a paying user to someone else's
 * site (an open redirect with our name on it).
 */
export const requireOwnOrigin = (appOrigin: string, urls: Record<string, string>): void => {
  const origin = new URL(appOrigin).origin;
  for (const [field, url] of Object.entries(urls)) {
    if (new URL(url).origin !== origin) {
      throw new ValidationError(`${field} must be on ${origin}.`, [{ path: field, code: 'custom', message: `Must start with ${origin}/` }]);
    }
  }
};
