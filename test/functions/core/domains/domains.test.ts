import { describe, expect, it } from 'vitest';
import { challengeName, DOMAINS_PER_CREATOR_MAX } from '#contracts/domains.ts';
import { addDomain, DAY_MS, domainRemovingMessage, domainTakenMessage, listDomains, publicDomainOf, removeDomain, verifyDomain } from '#core/domains/domains.ts';
import { runDomainChecks } from '#core/domains/check.ts';
import { domainDepsFor, TARGET } from './fakes.ts';

const setup = () => {
  const now = { at: new Date('2026-11-01T10:00:00Z') };
  return { now, ...domainDepsFor(now) };
};
const pointAt = (dns: ReturnType<typeof setup>['dns'], hostname: string, token: string) => {
  dns.records.set(`TXT ${challengeName(hostname)}`, ['unrelated', token]);
  dns.records.set(`CNAME ${hostname}`, [TARGET.toUpperCase()]);
};
const slice = { job: 'domains-check', run: 'r', lane: 'main', seq: 0 };

describe('adding a domain', () => {
  it('answers the TXT record (a random token per claim) and the CNAME to point at the platform', async () => {
    const { deps } = setup();
    const a = await addDomain(deps, { creatorId: 'c1', body: { hostname: 'Learn.Example.com' } });
    expect(a).toMatchObject({
      hostname: 'learn.example.com',
      status: 'pending_verification',
      verification: { type: 'TXT', name: '_courseplatform-challenge.learn.example.com', value: 'token-1' },
      target: { type: 'CNAME', value: TARGET },
    });
    const b = await addDomain(deps, { creatorId: 'c1', body: { hostname: 'shop.example.com' } });
    expect(b.verification.value).not.toBe(a.verification.value);
  });

  it('refuses a hostname another creator holds (409), the platform’s own (400), and one past the cap', async () => {
    const { deps } = setup();
    await addDomain(deps, { creatorId: 'c1', body: { hostname: 'learn.example.com' } });
    await expect(addDomain(deps, { creatorId: 'c2', body: { hostname: 'learn.example.com' } })).rejects.toMatchObject({ code: 'CONFLICT', message: domainTakenMessage });
    await expect(addDomain(deps, { creatorId: 'c2', body: { hostname: 'x.app.platform.example' } })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    // The CNAME target is the platform's too.
    await expect(addDomain(deps, { creatorId: 'c2', body: { hostname: `a.${TARGET}` } })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    for (let i = 1; i < DOMAINS_PER_CREATOR_MAX; i++) await addDomain(deps, { creatorId: 'c1', body: { hostname: `s${i}.example.com` } });
    await expect(addDomain(deps, { creatorId: 'c1', body: { hostname: 'one-more.example.com' } })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('lets another creator take a claim left unverified for a week, with a new token', async () => {
    const { deps, now } = setup();
    await addDomain(deps, { creatorId: 'c1', body: { hostname: 'learn.example.com' } });
    now.at = new Date(now.at.getTime() + 8 * DAY_MS);
    const taken = await addDomain(deps, { creatorId: 'c2', body: { hostname: 'learn.example.com' } });
    expect(taken.verification.value).toBe('token-2');
    expect((await listDomains(deps, 'c1')).items).toEqual([]);
  });
});

describe('verifying: pending_verification -> issuing_certificate -> active', () => {
  it('stays pending and says what is missing until both records resolve, then issues, then is active', async () => {
    const { deps, dns, edge } = setup();
    const added = await addDomain(deps, { creatorId: 'c1', body: { hostname: 'learn.example.com' } });
    const pending = await verifyDomain(deps, { creatorId: 'c1', hostname: 'learn.example.com' });
    expect(pending.status).toBe('pending_verification');
    expect(pending.problem).toContain('No TXT record _courseplatform-challenge.learn.example.com');
    expect(pending.problem).toContain(`No CNAME record from learn.example.com to ${TARGET}`);

    // Someone else's token proves nothing.
    dns.records.set(`TXT ${challengeName('learn.example.com')}`, ['token-999']);
    dns.records.set(`CNAME learn.example.com`, [TARGET]);
    expect((await verifyDomain(deps, { creatorId: 'c1', hostname: 'learn.example.com' })).status).toBe('pending_verification');
    expect(edge.created).toEqual([]);

    pointAt(dns, 'learn.example.com', added.verification.value);
    expect((await verifyDomain(deps, { creatorId: 'c1', hostname: 'learn.example.com' })).status).toBe('issuing_certificate');
    expect(edge.created).toEqual(['learn.example.com']);
    expect((await verifyDomain(deps, { creatorId: 'c1', hostname: 'learn.example.com' })).status).toBe('issuing_certificate');
    edge.next = { status: 'active' };
    const active = await verifyDomain(deps, { creatorId: 'c1', hostname: 'learn.example.com' });
    expect(active).toMatchObject({ status: 'active', problem: null, activatedAt: expect.any(String) });
    expect(await publicDomainOf({ domains: deps.domains, slugOf: () => Promise.resolve('ada') }, 'LEARN.example.com.')).toEqual({ hostname: 'learn.example.com', creatorSlug: 'ada' });
  });

  it('fails with the edge’s reason, and Verify on a failed domain checks it again from the start', async () => {
    const { deps, dns, edge } = setup();
    const added = await addDomain(deps, { creatorId: 'c1', body: { hostname: 'learn.example.com' } });
    pointAt(dns, 'learn.example.com', added.verification.value);
    await verifyDomain(deps, { creatorId: 'c1', hostname: 'learn.example.com' });
    edge.next = { status: 'failed', reason: 'the certificate is validation timed out.' };
    const failed = await verifyDomain(deps, { creatorId: 'c1', hostname: 'learn.example.com' });
    expect(failed).toMatchObject({ status: 'failed', failureReason: 'The certificate could not be issued: the certificate is validation timed out.' });
    await expect(publicDomainOf({ domains: deps.domains, slugOf: () => Promise.resolve('ada') }, 'learn.example.com')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    edge.next = { status: 'issuing' };
    expect((await verifyDomain(deps, { creatorId: 'c1', hostname: 'learn.example.com' })).status).toBe('issuing_certificate');
  });

  it('is 404 for another creator’s hostname', async () => {
    const { deps } = setup();
    await addDomain(deps, { creatorId: 'c1', body: { hostname: 'learn.example.com' } });
    await expect(verifyDomain(deps, { creatorId: 'c2', hostname: 'learn.example.com' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(removeDomain(deps, { creatorId: 'c2', hostname: 'learn.example.com' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('removing', () => {
  it('takes the hostname off the edge, then the claim: the storefront no longer finds it', async () => {
    const { deps, dns, edge } = setup();
    const added = await addDomain(deps, { creatorId: 'c1', body: { hostname: 'learn.example.com' } });
    pointAt(dns, 'learn.example.com', added.verification.value);
    edge.next = { status: 'active' };
    await verifyDomain(deps, { creatorId: 'c1', hostname: 'learn.example.com' });
    await verifyDomain(deps, { creatorId: 'c1', hostname: 'learn.example.com' });
    edge.failRemove = true;
    await expect(removeDomain(deps, { creatorId: 'c1', hostname: 'learn.example.com' })).rejects.toMatchObject({ code: 'UPSTREAM_FAILED' });
    expect((await listDomains(deps, 'c1')).items).toHaveLength(1);
    edge.failRemove = false;
    await removeDomain(deps, { creatorId: 'c1', hostname: 'learn.example.com' });
    expect(edge.removed).toEqual(['learn.example.com']);
    await expect(publicDomainOf({ domains: deps.domains, slugOf: () => Promise.resolve('ada') }, 'learn.example.com')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('removing while the edge still deploys the disable', () => {
  const activeDomain = async (s: ReturnType<typeof setup>, hostname: string) => {
    const added = await addDomain(s.deps, { creatorId: 'c1', body: { hostname } });
    pointAt(s.dns, hostname, added.verification.value);
    s.edge.next = { status: 'active' };
    await verifyDomain(s.deps, { creatorId: 'c1', hostname });
    await verifyDomain(s.deps, { creatorId: 'c1', hostname });
  };

  it('is gone for the creator and the storefront at once, and the job deletes the tenant, then the claim', async () => {
    const s = setup();
    await activeDomain(s, 'learn.example.com');
    s.edge.refuseDelete = true;
    await removeDomain(s.deps, { creatorId: 'c1', hostname: 'learn.example.com' });
    expect((await listDomains(s.deps, 'c1')).items).toEqual([]);
    await expect(publicDomainOf({ domains: s.deps.domains, slugOf: () => Promise.resolve('ada') }, 'learn.example.com')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(verifyDomain(s.deps, { creatorId: 'c1', hostname: 'learn.example.com' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // Nobody, its creator included, can claim the hostname while a tenant may still hold it.
    await expect(addDomain(s.deps, { creatorId: 'c1', body: { hostname: 'learn.example.com' } })).rejects.toMatchObject({ code: 'CONFLICT', message: domainRemovingMessage });
    expect(s.domains.items.get('learn.example.com')).toMatchObject({ removingAt: s.now.at.toISOString() });

    const run = runDomainChecks({ ...s.deps, warn: () => undefined });
    // Still refused: left due, tried again later.
    s.now.at = new Date(s.now.at.getTime() + 5 * 60_000);
    expect((await run(slice, () => false)).counts).toMatchObject({ removed: 0, errors: 0 });
    expect(s.domains.items.has('learn.example.com')).toBe(true);
    s.edge.refuseDelete = false;
    s.now.at = new Date(s.now.at.getTime() + 5 * 60_000);
    expect((await run(slice, () => false)).counts).toMatchObject({ removed: 1, checked: 0 });
    expect(s.edge.removed).toEqual(['learn.example.com']);
    expect(s.domains.items.has('learn.example.com')).toBe(false);
    // The hostname is free again.
    expect((await addDomain(s.deps, { creatorId: 'c2', body: { hostname: 'learn.example.com' } })).status).toBe('pending_verification');
  });

  it('does not let a failed claim waiting on the edge be claimed over after a week', async () => {
    const s = setup();
    const added = await addDomain(s.deps, { creatorId: 'c1', body: { hostname: 'learn.example.com' } });
    pointAt(s.dns, 'learn.example.com', added.verification.value);
    s.edge.next = { status: 'failed', reason: 'CAA forbids it.' };
    await verifyDomain(s.deps, { creatorId: 'c1', hostname: 'learn.example.com' });
    await verifyDomain(s.deps, { creatorId: 'c1', hostname: 'learn.example.com' });
    expect(s.domains.items.get('learn.example.com')?.status).toBe('failed');
    s.edge.refuseDelete = true;
    await removeDomain(s.deps, { creatorId: 'c1', hostname: 'learn.example.com' });
    s.now.at = new Date(s.now.at.getTime() + 8 * DAY_MS);
    await expect(addDomain(s.deps, { creatorId: 'c2', body: { hostname: 'learn.example.com' } })).rejects.toMatchObject({ message: domainRemovingMessage });
  });
});

describe('the periodic check (domains-check job)', () => {
  it('verifies pending claims whose records appeared, activates issuing ones, fails week-old unverified ones', async () => {
    const { deps, dns, edge, now, domains } = setup();
    const a = await addDomain(deps, { creatorId: 'c1', body: { hostname: 'a.example.com' } });
    await addDomain(deps, { creatorId: 'c1', body: { hostname: 'never.example.com' } });
    pointAt(dns, 'a.example.com', a.verification.value);
    const run = runDomainChecks({ ...deps, warn: () => undefined });

    // Not due yet: nothing happens.
    expect((await run(slice, () => false)).counts.checked).toBe(0);
    now.at = new Date(now.at.getTime() + 5 * 60_000);
    expect((await run(slice, () => false)).counts).toMatchObject({ checked: 2, issuing: 1 });
    expect(domains.items.get('a.example.com')?.status).toBe('issuing_certificate');
    edge.next = { status: 'active' };
    now.at = new Date(now.at.getTime() + 60_000);
    expect((await run(slice, () => false)).counts).toMatchObject({ activated: 1 });

    now.at = new Date(now.at.getTime() + 7 * DAY_MS);
    await run(slice, () => false);
    expect(domains.items.get('never.example.com')).toMatchObject({ status: 'failed', failureReason: expect.stringContaining('Not verified within 7 days'), nextCheckAt: null });
  });

  it('flags an active domain whose CNAME no longer points at the platform, and clears the flag when it does again', async () => {
    const { deps, dns, edge, now, domains } = setup();
    const a = await addDomain(deps, { creatorId: 'c1', body: { hostname: 'a.example.com' } });
    pointAt(dns, 'a.example.com', a.verification.value);
    edge.next = { status: 'active' };
    await verifyDomain(deps, { creatorId: 'c1', hostname: 'a.example.com' });
    await verifyDomain(deps, { creatorId: 'c1', hostname: 'a.example.com' });
    const run = runDomainChecks({ ...deps, warn: () => undefined });

    dns.records.set('CNAME a.example.com', ['somewhere-else.example.net']);
    now.at = new Date(now.at.getTime() + 6 * 3600_000);
    expect((await run(slice, () => false)).counts).toMatchObject({ flagged: 1 });
    const [flagged] = (await listDomains(deps, 'c1')).items;
    expect(flagged).toMatchObject({ status: 'active', flaggedAt: now.at.toISOString(), flagReason: `a.example.com no longer points at ${TARGET}: its CNAME record was changed or removed.` });

    dns.records.set('CNAME a.example.com', [TARGET]);
    now.at = new Date(now.at.getTime() + 6 * 3600_000);
    await run(slice, () => false);
    expect(domains.items.get('a.example.com')).toMatchObject({ flaggedAt: null, flagReason: null });
  });

  it('counts a claim whose check fails and leaves it due, without stopping the others', async () => {
    const { deps, dns, now } = setup();
    await addDomain(deps, { creatorId: 'c1', body: { hostname: 'a.example.com' } });
    await addDomain(deps, { creatorId: 'c1', body: { hostname: 'b.example.com' } });
    const warnings: unknown[] = [];
    const broken = { ...dns, txt: (name: string) => (name.endsWith('a.example.com') ? Promise.reject(new Error('timeout')) : dns.txt(name)) };
    now.at = new Date(now.at.getTime() + 5 * 60_000);
    const outcome = await runDomainChecks({ ...deps, dns: broken, warn: (_m, f) => warnings.push(f) })(slice, () => false);
    expect(outcome.counts).toMatchObject({ checked: 1, errors: 1 });
    expect(warnings).toEqual([{ hostname: 'a.example.com', error: 'timeout' }]);
  });
});
