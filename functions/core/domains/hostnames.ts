import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';
import { HOSTNAME_MAX } from '#contracts/domains.ts';

/**
 * What a creator may claim as a custom domain (issue 32 point 4). Pure. The hostname is normalised first (trimmed,
 * lower-cased, a trailing dot dropped, an internationalised name to its A-label `xn--` form), then it must be a real
 * DNS name: at least two labels of letters, digits and inner hyphens (1-63 characters each, 253 in all), a last label
 * that is not all digits (so no IPv4 address passes as a name), no IP address at all, and neither one of the
 * platform's own hostnames nor a subdomain of one (`localhost` counts as one everywhere).
 */

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Hostnames no creator may claim, nor any name under them, wherever the platform runs. */
export const ALWAYS_RESERVED = ['localhost'] as const;

export type HostnameCheck = { readonly hostname: string } | { readonly problem: string };

/** `learn.example.com` is under `example.com` (and is itself). */
export const isWithin = (hostname: string, parent: string): boolean => hostname === parent || hostname.endsWith(`.${parent}`);

/** The hostname as stored, or what is wrong with it, in words for the creator. */
export const checkHostname = (input: string, platformHostnames: readonly string[]): HostnameCheck => {
  const trimmed = input.trim().toLowerCase().replace(/\.$/, '');
  if (trimmed.includes('://') || trimmed.includes('/')) return { problem: 'Enter the hostname alone, like learn.example.com: no https:// and no path.' };
  if (isIP(trimmed) !== 0 || isIP(trimmed.replace(/^\[|\]$/g, '')) !== 0) return { problem: 'Enter a hostname, not an IP address.' };
  if (/^\d+$/.test(trimmed.split('.').at(-1)!)) return { problem: 'Enter a hostname, not an IP address.' };
  if (trimmed.length > HOSTNAME_MAX) return { problem: 'Enter a valid hostname, like learn.example.com.' };
  // WHATWG's domain to ASCII (UTS #46): an internationalised name to its xn-- form; '' for one it cannot map.
  const hostname = domainToASCII(trimmed);
  if (hostname === '' || hostname.length > HOSTNAME_MAX) return { problem: 'Enter a valid hostname, like learn.example.com.' };
  const reserved = [...ALWAYS_RESERVED, ...platformHostnames.map((h) => h.toLowerCase().replace(/\.$/, ''))].filter((h) => h !== '');
  if (reserved.some((platform) => isWithin(hostname, platform))) return { problem: "That is one of the platform's own addresses: use a domain of your own." };
  const labels = hostname.split('.');
  if (labels.length < 2) return { problem: 'Enter a full hostname with a dot, like learn.example.com.' };
  if (!labels.every((label) => LABEL.test(label))) return { problem: 'Enter a valid hostname: letters, digits and hyphens between the dots, like learn.example.com.' };
  return { hostname };
};
