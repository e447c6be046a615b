import { randomBytes } from 'node:crypto';
import { cloudFrontTenants, localEdgeTenants } from '#adapters/cloudfront-tenants.ts';
import { dnsResolver } from '#adapters/dns-resolver.ts';
import type { DomainCheckDeps } from '#core/domains/check.ts';
import type { DomainDeps, DomainRepository, EdgeTenants } from '#core/domains/ports.ts';
import { dynamoDomains } from '#data/domains.ts';
import { readPublicProfile } from '#data/public-profiles.ts';
import { clock } from '#functions/composition/deps.ts';
import { config, required } from '#functions/config.ts';

/** Custom domains (issue 32, decision 0055): the routes' and the 'domains-check' job's dependencies. */
let domains: DomainRepository | undefined;
let edge: EdgeTenants | undefined;
export const domainRepository = (): DomainRepository => (domains ??= dynamoDomains());

/** The local stand-in when the local cloud says so, CloudFront's tenants of the multi-tenant distribution otherwise. */
const edgeTenants = (): EdgeTenants =>
  (edge ??= config().EDGE_TENANTS_LOCAL === 'true' ? localEdgeTenants() : cloudFrontTenants({ distributionId: required('EDGE_TENANTS_DISTRIBUTION_ID'), connectionGroupId: required('EDGE_TENANTS_CONNECTION_GROUP_ID') }));

const platformHostnames = (): string[] =>
  required('PLATFORM_HOSTNAMES')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');

export const domainDeps = (): DomainDeps => ({
  domains: domainRepository(),
  dns: dnsResolver(config().DNS_RESOLVER),
  edge: edgeTenants(),
  clock,
  // 24 random bytes, base64url: 32 characters a TXT record holds as they are.
  randomToken: () => randomBytes(24).toString('base64url'),
  cnameTarget: required('DOMAIN_CNAME_TARGET'),
  platformHostnames: platformHostnames(),
});

export const domainCheckDeps = (warn: DomainCheckDeps['warn']): DomainCheckDeps => ({ ...domainDeps(), warn });

/** The storefront's lookup: the creator's public page address (null before they saved a profile). */
export const publicDomainDeps = () => ({
  domains: domainRepository(),
  slugOf: async (creatorId: string) => (await readPublicProfile(creatorId))?.slug ?? null,
});
