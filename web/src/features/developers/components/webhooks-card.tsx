/** Webhook endpoints (issue 31 point 4): add with events, secret shown once, delivery log, retry now. To be built. */
export function WebhooksCard() {
  return null;
}
