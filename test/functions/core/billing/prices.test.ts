import { describe, expect, it } from 'vitest';
import { planOfPrice, requireOwnOrigin } from '#core/billing/prices.ts';
import { ValidationError } from '#core/errors.ts';
import { PRICES } from '#test/functions/fakes/deps.ts';

describe('prices and return addresses', () => {
  it('knows the plan of each subscription price and no plan for anything else', () => {
    expect([PRICES.starter, PRICES.pro, PRICES.credits, null].map((id) => planOfPrice(PRICES, id))).toEqual(['starter', 'pro', null, null]);
  });

  it('accepts return addresses on the app origin, whatever their path and query', () => {
    expect(() => requireOwnOrigin('https://app.example/', { successUrl: 'https://app.example/checkout/success?x=1', cancelUrl: 'https://app.example/#pricing' })).not.toThrow();
  });

  it('refuses a look-alike host, another scheme or another port, naming the field', () => {
    for (const url of ['https://app.example.evil.com/x', 'http://app.example/x', 'https://app.example:8443/x']) {
      let error: unknown;
      try {
        requireOwnOrigin('https://app.example', { successUrl: 'https://app.example/ok', cancelUrl: url });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect(error).toMatchObject({ message: 'cancelUrl must be on https://app.example.', details: [{ path: 'cancelUrl' }] });
    }
  });
});
