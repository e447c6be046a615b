import type { PlanType } from '@contracts/plans.ts';
import { ApiError } from './api-error.ts';

/**
 * The plan a 403 PLAN_REQUIRED names (`details.requiredPlan`), or undefined for any other failure. Its own module (no
 * zod, no query): the toaster's failure toast reads it.
 */
export function planRequiredBy(error: unknown): PlanType | undefined {
  if (!(error instanceof ApiError) || error.code !== 'PLAN_REQUIRED') return undefined;
  const named = (error.details as { requiredPlan?: unknown } | undefined)?.requiredPlan;
  return named === 'starter' || named === 'pro' ? named : 'pro';
}
