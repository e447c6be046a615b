import { afterEach, describe, expect, it } from 'vitest';
import { accountWithRole, api } from '../support.ts';
import { faults } from './support.ts';
import { demoZoom } from '../zoom-support.ts';

/**
 * Zoom down or late (issue 30 point 4; docs/faults.md): a test of the connection is 502 naming Zoom, within the
 * adapter's 10 s per call; a save still saves, showing Zoom Disconnected with the reason; once Zoom is back, the next
 * test connects again.
 */
afterEach(() => faults.recover());

describe('Zoom down or late', () => {
  it('is 502 naming Zoom on test, a saved setting with the reason on save, and connected again once Zoom is back', async () => {
    const creator = await accountWithRole('creator', 'zoom-down');
    expect((await api('PUT', '/api/integrations', { token: creator.token, body: demoZoom() })).body.zoom.status).toBe('connected');

    await faults.set('zoom', { down: true });
    const tested = await api('POST', '/api/integrations/zoom/test', { token: creator.token });
    expect(tested.status).toBe(502);
    expect(tested.body.error).toMatchObject({ code: 'UPSTREAM_FAILED', message: expect.stringMatching(/^Zoom answered 503/) });
    const saved = await api('PUT', '/api/integrations', { token: creator.token, body: { ...demoZoom(), zoom: { ...demoZoom().zoom, apiSecret: undefined } } });
    expect(saved.status).toBe(200);
    expect(saved.body.zoom).toMatchObject({ status: 'error', error: expect.stringMatching(/^Zoom answered 503/), apiSecretSet: true });

    await faults.recover();
    expect((await api('POST', '/api/integrations/zoom/test', { token: creator.token })).body).toEqual({ ok: true });
    expect((await api('GET', '/api/integrations', { token: creator.token })).body.zoom.status).toBe('connected');
  });

  it('gives up on a Zoom that does not answer after 10 s, with 502 naming Zoom', async () => {
    const creator = await accountWithRole('creator', 'zoom-late');
    expect((await api('PUT', '/api/integrations', { token: creator.token, body: demoZoom() })).body.zoom.status).toBe('connected');
    await faults.set('zoom', { slow: 1, slowMs: 15_000 });
    const started = Date.now();
    const tested = await api('POST', '/api/integrations/zoom/test', { token: creator.token });
    const took = Date.now() - started;
    expect(tested.status).toBe(502);
    expect(tested.body.error.message).toBe('Zoom did not answer within 10 s (the user read).');
    // It waited its 10 s once and gave up: the message is the adapter's timeout, not Zoom's answer (which comes at 15 s),
    // and under 20 s is one attempt, not two. (The bound was 14 s: a loaded machine's gateway overhead, not a retry.)
    expect(took).toBeGreaterThanOrEqual(9_500);
    expect(took, 'one 10 s attempt, not a second one after it').toBeLessThan(19_500);
  });
});

describe('scheduling a live session while Zoom is down', () => {
  it('is 502 naming Zoom with nothing saved, and works once Zoom is back', async () => {
    const creator = await accountWithRole('creator', 'zoom-down-session');
    expect((await api('PUT', '/api/integrations', { token: creator.token, body: demoZoom() })).body.zoom.status).toBe('connected');
    const courseId = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Live while down' } })).body.id as string;
    const body = { title: 'Office hours', startsAt: new Date(Date.now() + 2 * 86_400_000).toISOString(), durationMinutes: 30, provider: 'zoom' };

    await faults.set('zoom', { down: true });
    const refused = await api('POST', `/api/courses/${courseId}/sessions`, { token: creator.token, body });
    expect(refused.status).toBe(502);
    expect(refused.body.error).toMatchObject({ code: 'UPSTREAM_FAILED', message: expect.stringMatching(/^Zoom/) });
    expect((await api('GET', `/api/courses/${courseId}/sessions`, { token: creator.token })).body.items).toEqual([]);

    await faults.recover();
    const made = await api('POST', `/api/courses/${courseId}/sessions`, { token: creator.token, body });
    expect(made.status).toBe(201);
    expect((await api('GET', `/api/courses/${courseId}/sessions`, { token: creator.token })).body.items).toHaveLength(1);
  });
});
