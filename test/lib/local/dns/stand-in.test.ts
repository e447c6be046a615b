import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsResolver } from '#adapters/dns-resolver.ts';
import { startDnsStandIn, type DnsStandIn } from '#lib/local/dns/stand-in.ts';

/** The local DNS (decision 0055), read through the functions' own resolver adapter (node:dns, real UDP queries). */
let dns: DnsStandIn;
beforeAll(async () => {
  dns = await startDnsStandIn({ controlPort: 0 });
});
afterAll(() => dns.stop());

const put = (body: object) => fetch(`${dns.controlUrl}/records`, { method: 'PUT', body: JSON.stringify(body) });

describe('the DNS stand-in', () => {
  it('answers TXT, CNAME and A questions with the records set through its control endpoint, NXDOMAIN otherwise', async () => {
    const resolver = dnsResolver(dns.resolver);
    expect((await put({ name: '_courseplatform-challenge.Learn.Example.com.', type: 'TXT', value: 'tok-1' })).status).toBe(204);
    expect((await put({ name: '_courseplatform-challenge.learn.example.com', type: 'TXT', value: 'x'.repeat(300) })).status).toBe(204);
    expect((await put({ name: 'learn.example.com', type: 'CNAME', value: 'Target.Example.NET.' })).status).toBe(204);
    expect((await put({ name: 'a.example.com', type: 'A', value: '192.0.2.1' })).status).toBe(204);

    expect(await resolver.txt('_courseplatform-challenge.learn.example.com')).toEqual(['tok-1', 'x'.repeat(300)]);
    expect(await resolver.cname('learn.example.com')).toEqual(['target.example.net']);
    // A name with only an A record has no CNAME; an unknown name has nothing.
    expect(await resolver.cname('a.example.com')).toEqual([]);
    expect(await resolver.txt('nothing.example.com')).toEqual([]);
  });

  it('replaces a CNAME, clears a name or everything, and refuses a malformed record', async () => {
    const resolver = dnsResolver(dns.resolver);
    await put({ name: 'moved.example.com', type: 'CNAME', value: 'one.example.net' });
    await put({ name: 'moved.example.com', type: 'CNAME', value: 'two.example.net' });
    expect(await resolver.cname('moved.example.com')).toEqual(['two.example.net']);
    expect((await fetch(`${dns.controlUrl}/records?name=moved.example.com`, { method: 'DELETE' })).status).toBe(204);
    expect(await resolver.cname('moved.example.com')).toEqual([]);
    expect((await put({ name: 'bad.example.com', type: 'MX', value: 'x' })).status).toBe(400);
    expect((await put({ name: 'bad.example.com', type: 'A', value: 'not-an-ip' })).status).toBe(400);
    expect((await fetch(`${dns.controlUrl}/records`, { method: 'DELETE' })).status).toBe(204);
    expect(((await (await fetch(`${dns.controlUrl}/records`)).json()) as { records: unknown[] }).records).toEqual([]);
  });
});
