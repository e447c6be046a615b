import { describe, expect, it } from 'vitest';
import { forbiddenAddress, webhookUrlProblem } from '#core/webhooks/address-guard.ts';

describe('the SSRF guard of webhook deliveries', () => {
  it.each([
    ['10.0.0.1', 'private 10/8'],
    ['10.255.255.255', 'private 10/8, last'],
    ['172.16.0.1', 'private 172.16/12, first'],
    ['172.31.255.254', 'private 172.16/12, last'],
    ['192.168.1.1', 'private 192.168/16'],
    ['127.0.0.1', 'loopback'],
    ['127.10.0.1', 'loopback /8'],
    ['169.254.169.254', 'instance metadata'],
    ['169.254.1.1', 'link-local'],
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', '0/8'],
    ['100.64.0.1', 'shared 100.64/10'],
    ['100.127.255.255', 'shared 100.64/10, last'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['febf::1', 'IPv6 link-local, last /10'],
    ['fc00::1', 'unique local fc00::/7'],
    ['fd12:3456::1', 'unique local fd'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:169.254.169.254', 'IPv4-mapped metadata'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped metadata in hex'],
    ['::ffff:10.1.2.3', 'IPv4-mapped private'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['64:ff9b::10.0.0.1', 'NAT64 of a private address'],
    ['2002:a00:1::1', '6to4 of 10.0.0.1'],
    ['ff02::1', 'IPv6 multicast'],
    ['not-an-ip', 'not an address'],
  ])('refuses %s (%s)', (ip) => {
    expect(forbiddenAddress(ip)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '169.253.255.255', '11.0.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    'lets the public address %s through',
    (ip) => {
      expect(forbiddenAddress(ip)).toBe(false);
    },
  );
});

describe("an endpoint's URL", () => {
  it('is https with a public host', () => {
    expect(webhookUrlProblem('https://hooks.example.com/in', false)).toBeUndefined();
    expect(webhookUrlProblem('https://8.8.8.8/in', false)).toBeUndefined();
  });

  it.each([
    ['http://hooks.example.com/in', 'The address must start with https://.'],
    ['ftp://hooks.example.com/in', 'The address must start with https://.'],
    ['https://user:pw@hooks.example.com/in', 'The address must not contain a user name or password.'],
    ['https://127.0.0.1/in', 'The address must be public: private, loopback and link-local addresses are not allowed.'],
    ['https://[::1]/in', 'The address must be public: private, loopback and link-local addresses are not allowed.'],
    ['https://169.254.169.254/latest/meta-data', 'The address must be public: private, loopback and link-local addresses are not allowed.'],
    ['https://[::ffff:10.0.0.1]/in', 'The address must be public: private, loopback and link-local addresses are not allowed.'],
    ['https://localhost/in', 'The address must be a public host name: private, loopback and link-local addresses are not allowed.'],
    ['https://metadata.google.internal/', 'The address must be a public host name: private, loopback and link-local addresses are not allowed.'],
    ['https://intranet/in', 'The address must be a public host name: private, loopback and link-local addresses are not allowed.'],
    ['not a url', 'Enter the full address, starting with https://.'],
  ])('refuses %s with a plain message', (url, message) => {
    expect(webhookUrlProblem(url, false)).toBe(message);
  });

  it('may be http://127.0.0.1:<port> only where the local cloud allows it', () => {
    expect(webhookUrlProblem('http://127.0.0.1:4567/hook', true)).toBeUndefined();
    expect(webhookUrlProblem('http://127.0.0.1:4567/hook', false)).toBe('The address must start with https://.');
    expect(webhookUrlProblem('http://127.0.0.1/hook', true)).toBe('The address must start with https://.');
    expect(webhookUrlProblem('http://10.0.0.1:4567/hook', true)).toBe('The address must start with https://.');
  });
});
