/** An error the API reports in Stripe's shape (`{error:{type,code,message,param}}`). */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly param?: string,
    readonly type: 'invalid_request_error' | 'idempotency_error' | 'api_error' = 'invalid_request_error',
  ) {
    super(message);
  }
}

/** Stripe's answer for an unknown id: 404 on the object's own URL, 400 when it is a parameter of another call. */
export const missing = (kind: string, id: string, param = 'id', status = 404): StripeApiError =>
  new StripeApiError(status, `No such ${kind}: '${id}'`, 'resource_missing', param);

export const errorBody = (error: StripeApiError) => ({
  error: {
    type: error.type,
    message: error.message,
    ...(error.code ? { code: error.code, doc_url: `https://stripe.com/docs/error-codes/${error.code.replaceAll('_', '-')}` } : {}),
    ...(error.param ? { param: error.param } : {}),
  },
});

/** Stripe's refusal to expire a Checkout Session that is no longer open (completed or expired already). */
export const assertOpenSession = (session: { status: string }): void => {
  if (session.status !== 'open') {
    throw new StripeApiError(
      400,
      `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of \`${session.status}\`.`,
      undefined,
      'session',
    );
  }
};
