import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_ENDPOINTS_MAX } from '#contracts/webhooks.ts';
import { ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import { createWebhookEndpoint, deleteWebhookEndpoint, listWebhookEndpoints, webhookSecretContext } from '#core/webhooks/endpoints.ts';
import { sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { countingCipher } from '#test/functions/fakes/integrations.ts';
import { memoryWebhookEndpoints } from '#test/functions/fakes/webhooks.ts';

const deps = (allowLocalHttp = false) => ({
  endpoints: memoryWebhookEndpoints(),
  cipher: countingCipher(),
  clock: testClock(),
  ids: sequentialIds('ep'),
  randomSecret: () => randomBytes(32).toString('base64'),
  allowLocalHttp,
});
const body = { url: 'https://hooks.example.com/in', events: ['enrollment.created', 'order.paid'] as ('enrollment.created' | 'order.paid')[] };

describe("a creator's webhook endpoints", () => {
  it('show their secret once as whsec_ and base64, usable by the standardwebhooks library, and keep it only sealed for that endpoint', async () => {
    const d = deps();
    const made = await createWebhookEndpoint(d, { creatorId: 'u1', body });
    expect(made).toMatchObject({ url: body.url, events: body.events });
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const signed = new Webhook(made.secret).sign('msg_1', new Date(), '{}');
    expect(signed).toMatch(/^v1,/);
    const stored = d.endpoints.endpoints.get(made.id)!;
    expect(JSON.stringify(stored)).not.toContain(made.secret.slice(6));
    expect(await d.cipher.decrypt(stored.secret, webhookSecretContext('u1', made.id))).toBe(made.secret);
    await expect(d.cipher.decrypt(stored.secret, webhookSecretContext('u2', made.id))).rejects.toThrow();
  });

  it('are listed newest first without their secrets, and only to their creator', async () => {
    const d = deps();
    const first = await createWebhookEndpoint(d, { creatorId: 'u1', body });
    const second = await createWebhookEndpoint(d, { creatorId: 'u1', body: { ...body, events: ['course.completed'] } });
    await createWebhookEndpoint(d, { creatorId: 'u2', body });
    const { items } = await listWebhookEndpoints(d, 'u1');
    expect(items.map((e) => e.id)).toEqual([second.id, first.id]);
    expect(items[1]).toEqual({ id: first.id, url: body.url, events: body.events, createdAt: d.clock.now().toISOString(), disabledAt: null });
    expect(JSON.stringify(items)).not.toContain('whsec_');
  });

  it('refuse a URL that is not https and public with a 400 that says why, sealing nothing', async () => {
    const d = deps();
    for (const url of ['http://hooks.example.com/in', 'https://169.254.169.254/latest', 'https://localhost/in', 'https://[::ffff:10.0.0.1]/in', 'http://127.0.0.1:8080/in']) {
      await expect(createWebhookEndpoint(d, { creatorId: 'u1', body: { ...body, url } })).rejects.toBeInstanceOf(ValidationError);
    }
    expect(d.cipher.sealed).toBe(0);
    expect(d.endpoints.endpoints.size).toBe(0);
  });

  it('accept http://127.0.0.1:<port> where the local cloud allows it', async () => {
    const made = await createWebhookEndpoint(deps(true), { creatorId: 'u1', body: { ...body, url: 'http://127.0.0.1:8080/in' } });
    expect(made.url).toBe('http://127.0.0.1:8080/in');
  });

  it(`stop at ${WEBHOOK_ENDPOINTS_MAX} with a 409 that says to delete one; a deleted one frees its place; another creator's is 404`, async () => {
    const d = deps();
    const made = [];
    for (let i = 0; i < WEBHOOK_ENDPOINTS_MAX; i++) made.push(await createWebhookEndpoint(d, { creatorId: 'u1', body }));
    await expect(createWebhookEndpoint(d, { creatorId: 'u1', body })).rejects.toThrow(
      new ConflictError(`You can have at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints. Delete one you no longer use first.`),
    );
    await expect(deleteWebhookEndpoint(d, { creatorId: 'u2', endpointId: made[0]!.id })).rejects.toBeInstanceOf(NotFoundError);
    await deleteWebhookEndpoint(d, { creatorId: 'u1', endpointId: made[0]!.id });
    await expect(deleteWebhookEndpoint(d, { creatorId: 'u1', endpointId: made[0]!.id })).rejects.toBeInstanceOf(NotFoundError);
    await createWebhookEndpoint(d, { creatorId: 'u1', body });
  });
});
