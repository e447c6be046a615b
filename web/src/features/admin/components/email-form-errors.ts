import type * as z from 'zod';
import { ApiError } from '@/lib/api-error.ts';

/** A message per form field ('subject', 'content', ...), from the contract's checks or a 400's details. */
export type FieldErrors = Partial<Record<string, string>>;

/** The first message per top-level field of a failed contract parse, checked before sending. */
export function fieldErrorsOfIssues(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return errors;
}

/**
 * A 400's field messages: the API puts `[{ path: 'subject', code, message }]` in `details` (functions/middleware/
 * errors.ts zodDetails). Anything else (a 500, a network failure) has none.
 */
export function fieldErrorsOfFailure(error: unknown): FieldErrors {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION_FAILED' || !Array.isArray(error.details)) return {};
  const errors: FieldErrors = {};
  for (const detail of error.details as unknown[]) {
    if (typeof detail !== 'object' || detail === null) continue;
    const { path, message } = detail as { path?: unknown; message?: unknown };
    if (typeof path !== 'string' || typeof message !== 'string') continue;
    const field = path.split('.')[0] ?? '';
    if (field && !errors[field]) errors[field] = message;
  }
  return errors;
}
