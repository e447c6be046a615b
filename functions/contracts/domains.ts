import * as z from 'zod';
import { isoDate } from './common.ts';

/**
 * Custom domains (issue 32 point 2, Pro; docs/api.md "Custom domains (Pro)"; docs/decisions/0055-custom-domains.md):
 * a creator claims a hostname, proves it with a TXT record and points it at the platform with a CNAME; the platform
 * then has the edge issue its certificate, and the hostname serves that creator's storefront only.
 * Plain zod and constants: the web app imports them.
 */
export const domainStatuses = ['pending_verification', 'issuing_certificate', 'active', 'failed'] as const;
export type DomainStatus = (typeof domainStatuses)[number];

/** The TXT record proving ownership is `<DOMAIN_CHALLENGE_LABEL>.<hostname>`; its value is the claim's token. */
export const DOMAIN_CHALLENGE_LABEL = '_courseplatform-challenge';
/** Hostnames one creator may hold at once (any status). */
export const DOMAINS_PER_CREATOR_MAX = 5;
/** An unverified claim (pending or failed) older than this may be claimed by someone else: a typo does not lock a hostname. */
export const UNVERIFIED_CLAIM_DAYS = 7;
/** The longest name DNS allows (RFC 1035), without the trailing dot. */
export const HOSTNAME_MAX = 253;

/** The challenge record's name for a hostname. */
export const challengeName = (hostname: string): string => `${DOMAIN_CHALLENGE_LABEL}.${hostname}`;

/** POST /api/domains (the hostname is normalised and checked by the use case: a real DNS name, not the platform's). */
export const addDomainBody = z.strictObject({ hostname: z.string().trim().min(1, 'Enter a hostname, like learn.example.com.').max(HOSTNAME_MAX + 1) });
export type AddDomainBody = z.infer<typeof addDomainBody>;

/**
 * A domain as the creator sees it: the two records to set, where it stands, why it failed (`failureReason`), and
 * whether its DNS stopped pointing at the platform while active (`flaggedAt`, `flagReason`: the periodic check).
 * `problem` is what the last check found missing while pending (null before the first check or once verified).
 */
export const domainView = z.object({
  hostname: z.string(),
  status: z.enum(domainStatuses),
  verification: z.object({ type: z.literal('TXT'), name: z.string(), value: z.string() }),
  target: z.object({ type: z.literal('CNAME'), value: z.string() }),
  problem: z.string().nullable(),
  failureReason: z.string().nullable(),
  flaggedAt: isoDate.nullable(),
  flagReason: z.string().nullable(),
  createdAt: isoDate,
  checkedAt: isoDate.nullable(),
  activatedAt: isoDate.nullable(),
});
export type DomainView = z.infer<typeof domainView>;

/** GET /api/domains. */
export const domainList = z.object({ items: z.array(domainView) });
export type DomainList = z.infer<typeof domainList>;

/**
 * GET /api/public/domains/{hostname}: the creator an active domain serves (what the storefront entry routes a `Host`
 * by); 404 for any other hostname. `creatorSlug` is null while the creator has no public page.
 */
export const publicDomain = z.object({ hostname: z.string(), creatorSlug: z.string().nullable() });
export type PublicDomain = z.infer<typeof publicDomain>;
