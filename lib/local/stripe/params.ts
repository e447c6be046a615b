import { StripeApiError } from './errors.ts';
import { obj, str, type FormObject, type FormValue } from './form.ts';

/**
 * Readers of the request's parameters, shared by every route: each checks one parameter and answers with Stripe's
 * error for it (code and `param`), so a refused call says which parameter was wrong, as Stripe's do.
 */

// ---- parameter readers: every leaf arrives as a string ----

export const integer = (value: FormValue | undefined, param: string, min = 0): number | undefined => {
  if (value === undefined) return undefined;
  const text = str(value);
  if (text === undefined || !/^-?\d+$/.test(text)) throw new StripeApiError(400, `Invalid integer: ${String(text ?? '')}`, 'parameter_invalid_integer', param);
  const parsed = Number(text);
  if (parsed < min) throw new StripeApiError(400, `This value must be greater than or equal to ${min}.`, 'parameter_invalid_integer', param);
  return parsed;
};

export const boolean = (value: FormValue | undefined, param: string): boolean | undefined => {
  if (value === undefined) return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new StripeApiError(400, `Invalid boolean: ${String(str(value) ?? '')}`, 'parameter_invalid_boolean', param);
};

export const url = (value: FormValue | undefined, param: string): string | undefined => {
  const text = str(value);
  if (text === undefined) return undefined;
  try {
    new URL(text.replaceAll('{CHECKOUT_SESSION_ID}', 'x'));
  } catch {
    throw new StripeApiError(400, 'Not a valid URL', 'url_invalid', param);
  }
  return text;
};

export const metadata = (value: FormValue | undefined, param = 'metadata'): Record<string, string> | string | undefined => {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return value;
  const object = obj(value);
  if (!object) throw new StripeApiError(400, 'Invalid object', 'parameter_invalid_object', param);
  const out: Record<string, string> = {};
  for (const [key, item] of Object.entries(object)) {
    const text = str(item);
    if (text === undefined) throw new StripeApiError(400, `Invalid value for metadata key ${key}: strings only`, 'parameter_invalid_string', `${param}[${key}]`);
    if (key.length > 40) throw new StripeApiError(400, 'Metadata keys can be at most 40 characters.', 'parameter_invalid_string', `${param}[${key}]`);
    if (text.length > 500) throw new StripeApiError(400, 'Metadata values can be at most 500 characters.', 'parameter_invalid_string', `${param}[${key}]`);
    out[key] = text;
  }
  return out;
};

export const required = <T>(value: T | undefined, param: string): T => {
  if (value === undefined || value === '') throw new StripeApiError(400, `Missing required param: ${param}.`, 'parameter_missing', param);
  return value;
};

export const email = (value: FormValue | undefined, param: string): string | null | undefined => {
  const text = str(value);
  if (text === undefined) return undefined;
  if (text === '') return null;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) throw new StripeApiError(400, 'Invalid email address: ' + text, 'email_invalid', param);
  return text;
};

const expiryWindow = { min: 30 * 60, max: 24 * 3600 };
/** A few seconds for the request's own travel: a client sending "now + 30 minutes" is not refused for it. */
const clockSlack = 10;

/** `expires_at`: 30 minutes to 24 hours after creation (Stripe's bounds), 24 hours when absent. */
export const expiry = (value: FormValue | undefined, now: number): number => {
  const requested = integer(value, 'expires_at');
  if (requested === undefined) return now + expiryWindow.max;
  if (requested < now + expiryWindow.min - clockSlack) {
    throw new StripeApiError(400, 'The `expires_at` timestamp must be at least 30 minutes from Checkout Session creation.', 'parameter_invalid_integer', 'expires_at');
  }
  if (requested > now + expiryWindow.max) {
    throw new StripeApiError(400, 'The `expires_at` timestamp must be less than 24 hours from Checkout Session creation.', 'parameter_invalid_integer', 'expires_at');
  }
  return requested;
};

// ---- lists: newest first, cursor pagination like Stripe's ----

export const paginate = <T extends { id: string }>(oldestFirst: T[], params: FormObject, path: string) => {
  const limit = integer(params.limit, 'limit', 1) ?? 10;
  if (limit > 100) throw new StripeApiError(400, 'This value must be less than or equal to 100.', 'parameter_invalid_integer', 'limit');
  let items = [...oldestFirst].reverse();
  const after = str(params.starting_after);
  const before = str(params.ending_before);
  if (after) items = items.slice(items.findIndex((item) => item.id === after) + 1);
  if (before) {
    const index = items.findIndex((item) => item.id === before);
    items = index >= 0 ? items.slice(Math.max(0, index - limit), index) : [];
  }
  return { object: 'list', data: items.slice(0, limit), has_more: items.length > limit, url: path };
};
