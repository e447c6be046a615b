import type { FieldErrors, FieldValues, ResolverResult } from 'react-hook-form';
import type * as z from 'zod';

/**
 * The end of a form's resolver that checks its body with the contract itself: the form's own `problems` (said first,
 * in its fields' words), then each issue the contract found on the field `fieldOf` names with the words it gives
 * (nothing: the issue is left to the server's answer). The body when there is no problem at all, else every problem
 * on its field.
 */
export function contractResolution<Form extends FieldValues, Body>(
  parsed: z.ZodSafeParseResult<Body>,
  problems: Partial<Record<keyof Form, string>>,
  fieldOf: (issue: z.core.$ZodIssue) => readonly [keyof Form, string] | undefined,
): ResolverResult<Form, Body> {
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const found = fieldOf(issue);
      if (found) problems[found[0]] ??= found[1];
    }
  }
  const entries = Object.entries(problems);
  if (parsed.success && entries.length === 0) return { values: parsed.data, errors: {} };
  const errors = Object.fromEntries(entries.map(([name, message]) => [name, { type: 'validate', message }])) as FieldErrors<Form>;
  return { values: {}, errors };
}
