import { apiVersion, newId, nowSeconds, type CheckoutSession, type StripeEvent, type StripeState } from './state.ts';

/** Which API request caused an event (null for the hosted pages and the clock, as in Stripe). */
export interface EventCause {
  requestId: string | null;
  idempotencyKey: string | null;
}

export const automatic: EventCause = { requestId: null, idempotencyKey: null };

type PrivateSessionFields = 'line_items_data' | 'subscription_data' | 'connect_data';

/** The session as the API returns it: the stand-in's bookkeeping fields stay private. */
export const renderSession = <T extends CheckoutSession>(session: T): Omit<T, PrivateSessionFields> => {
  const {
    line_items_data: _lines,
    subscription_data: _subscriptionData,
    connect_data: _connect,
    ...visible
  } = session as T & { connect_data?: unknown };
  return visible;
};

/** What an event carries: a snapshot, so later changes to the state do not rewrite history. */
const snapshot = (object: unknown): unknown =>
  structuredClone(
    object !== null && typeof object === 'object' && (object as { object?: string }).object === 'checkout.session'
      ? renderSession(object as CheckoutSession)
      : object,
  );

export type Emit = (type: string, object: unknown, cause?: EventCause, previousAttributes?: Record<string, unknown>) => StripeEvent;

/**
 * Records an event in the state's log and returns it; delivering it is the caller's business. With `account`, the
 * events are Connect events of that connected account: they carry its id as Stripe's do (`event.account`).
 */
export const eventLog = (state: StripeState, account?: string): Emit => (type, object, cause = automatic, previousAttributes) => {
  const event: StripeEvent = {
    id: newId('evt'),
    object: 'event',
    api_version: apiVersion,
    created: nowSeconds(),
    data: previousAttributes
      ? { object: snapshot(object), previous_attributes: structuredClone(previousAttributes) }
      : { object: snapshot(object) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: cause.requestId, idempotency_key: cause.idempotencyKey },
    type,
    ...(account ? { account } : {}),
  };
  state.events[event.id] = event;
  return event;
};
