import type { ApiKeyView } from '@contracts/api-keys.ts';
import type { WebhookDeliveryView, WebhookEndpointView } from '@contracts/webhooks.ts';

export const apiKey = (id: string, changes: Partial<ApiKeyView> = {}): ApiKeyView => ({
  id,
  name: `Key ${id}`,
  scopes: ['courses:read'],
  prefix: 'cp_AbC1',
  last4: 'wXyZ',
  createdAt: '2026-11-20T10:00:00.000Z',
  lastUsedAt: null,
  ...changes,
});

export const endpoint = (id: string, changes: Partial<WebhookEndpointView> = {}): WebhookEndpointView => ({
  id,
  url: `https://hooks.example.com/${id}`,
  events: ['enrollment.created'],
  createdAt: '2026-11-20T10:00:00.000Z',
  disabledAt: null,
  ...changes,
});

export const delivery = (id: string, changes: Partial<WebhookDeliveryView> = {}): WebhookDeliveryView => ({
  id,
  event: 'enrollment.created',
  status: 'delivered',
  attempts: 1,
  lastStatusCode: 200,
  nextAttemptAt: null,
  createdAt: '2026-11-25T10:00:00.000Z',
  ...changes,
});
