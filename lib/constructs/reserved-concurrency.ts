/**
 * Reserved concurrency: the functions that must keep running while public traffic floods the account, each with the
 * executions kept for it alone (docs/decisions/0036-reserved-concurrency.md). A reservation is also a ceiling: the
 * function never runs more than this many at once, so each value is what its peak needs with room, not more (what is
 * reserved here is taken from every other function).
 *
 * The one table: AppFunction reads it by function name (routes, triggers); test/lib/constructs/reserved-concurrency.test.ts
 * checks that the synthesized functions carry exactly these values and that the sum leaves the unreserved pool its
 * floor.
 */
export interface Reservation {
  readonly executions: number;
  readonly why: string;
}

export const reservedConcurrency = {
  'stripe-webhook': {
    executions: 20,
    why: 'Billing events (subscriptions, credit top-ups): Stripe retries for three days, but a starved endpoint delays paid plans; ~1 s per event, 20 covers bursts of 20 events a second.',
  },
  'stripe-connect-webhook': {
    executions: 50,
    why: 'Course sales: a flash sale is thousands of checkout.session.completed events within minutes, each enrolling a buyer; 50 at ~1 s each is 50 orders a second, and Stripe queues the rest.',
  },
  'pre-sign-up': {
    executions: 10,
    why: 'Every sign-up waits on it (Cognito gives a trigger 5 s): a few ms each, 10 covers hundreds of sign-ups a second.',
  },
  'post-confirmation': {
    executions: 10,
    why: 'Every confirmed account gets its profile and group here, synchronously: a failed trigger leaves a user without a role.',
  },
  'custom-message': {
    executions: 5,
    why: 'Password reset and verification messages: pure formatting, milliseconds each.',
  },
} as const satisfies Record<string, Reservation>;

/**
 * Lambda's default account limit of concurrent executions per region (raise it through a quota request; the
 * arithmetic below holds at the default).
 */
export const ACCOUNT_CONCURRENCY = 1_000;
/** Lambda refuses a reservation that would leave fewer than 100 unreserved executions for the other functions. */
export const UNRESERVED_FLOOR = 100;

export const reservedTotal = (): number => Object.values(reservedConcurrency).reduce((sum, r) => sum + r.executions, 0);

/** The reservation of a function by its name (route, trigger), if it has one. */
export const reservationOf = (name: string): number | undefined =>
  (reservedConcurrency as Record<string, Reservation | undefined>)[name]?.executions;
