import { createHash } from 'node:crypto';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { SignatureV4 } from '@smithy/signature-v4';
import { clientPolicies, fetchTimeout } from '#adapters/client-policy.ts';
import { Sha256 } from '#adapters/s3-presigner.ts';
import type { EdgeTenants, EdgeTenantState } from '#core/domains/ports.ts';

/**
 * The edge of the custom domains in AWS (decision 0055): one CloudFront distribution tenant per hostname on the
 * platform's multi-tenant distribution, with a CloudFront-managed ACM certificate (HTTP validation served by
 * CloudFront itself once the hostname's CNAME points at it: the creator sets no record for the certificate).
 * The installed AWS SDK has no @aws-sdk/client-cloudfront (and the functions' bundles stay without it): CloudFront's
 * REST-XML API is called directly, signed with Signature V4 as the SDK would (`@smithy/signature-v4`, service
 * `cloudfront`, us-east-1), with the function role's credentials (always in Lambda's environment).
 * The tenant is named after the hostname (a hash for one longer than a tenant name may be), so every call finds it
 * by name, with nothing stored beside the claim.
 */
const HOST = 'cloudfront.amazonaws.com';
const API = '/2020-05-31';
const XMLNS = 'http://cloudfront.amazonaws.com/doc/2020-05-31/';

/** A tenant's name: the hostname when it fits CloudFront's pattern (3-128 characters), else `domain-` and a hash. */
export const tenantName = (hostname: string): string =>
  hostname.length <= 128 ? hostname : `domain-${createHash('sha256').update(hostname).digest('hex').slice(0, 40)}`;

const escapeXml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** The text of the first `<tag>` in `xml` (CloudFront's answers are small and flat enough for this). */
export const xmlText = (xml: string, tag: string): string | undefined => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1];

/** CloudFront's answer as this adapter reads it: the tenant's status, its domain's, its certificate's. */
export const stateOf = (tenantXml: string, certificateStatus: string | undefined): EdgeTenantState => {
  if (certificateStatus && ['failed', 'validation-timed-out', 'revoked', 'expired'].includes(certificateStatus)) {
    return { status: 'failed', reason: `the certificate is ${certificateStatus.replace(/-/g, ' ')}.` };
  }
  // The tenant's own <Status> (InProgress, Deployed) is outside <Domains>, whose results carry theirs (active, inactive).
  const domains = /<Domains>[\s\S]*<\/Domains>/.exec(tenantXml)?.[0] ?? '';
  const deployed = xmlText(tenantXml.replace(domains, ''), 'Status') === 'Deployed';
  const domainActive = xmlText(domains, 'Status') === 'active';
  return deployed && domainActive && (certificateStatus === undefined || certificateStatus === 'issued') ? { status: 'active' } : { status: 'issuing' };
};

export interface CloudFrontTenantsOptions {
  /** The multi-tenant distribution's id (the Web stack's output). */
  distributionId: string;
  /** The connection group the tenants join (its routing endpoint is the CNAME target). */
  connectionGroupId: string;
  /** Tests: the HTTP call. */
  fetch?: typeof fetch;
}

export const cloudFrontTenants = (options: CloudFrontTenantsOptions): EdgeTenants => {
  const signer = new SignatureV4({ service: 'cloudfront', region: 'us-east-1', credentials: fromEnv(), sha256: Sha256 });
  const call = async (method: string, path: string, init: { body?: string; headers?: Record<string, string>; query?: Record<string, string> } = {}) => {
    const signed = await signer.sign({
      method,
      protocol: 'https:',
      hostname: HOST,
      path: `${API}${path}`,
      ...(init.query ? { query: init.query } : {}),
      headers: { host: HOST, ...(init.body ? { 'content-type': 'application/xml' } : {}), ...init.headers },
      ...(init.body ? { body: init.body } : {}),
    });
    const query = init.query ? `?${new URLSearchParams(init.query).toString()}` : '';
    const answer = await (options.fetch ?? fetch)(`https://${HOST}${API}${path}${query}`, {
      method,
      headers: signed.headers,
      ...(init.body ? { body: init.body } : {}),
      signal: fetchTimeout(clientPolicies.edge),
    });
    const text = await answer.text();
    return { status: answer.status, etag: answer.headers.get('etag') ?? '', text };
  };
  const failure = (what: string, answer: { status: number; text: string }) =>
    new Error(`CloudFront ${what}: ${answer.status} ${xmlText(answer.text, 'Code') ?? ''} ${xmlText(answer.text, 'Message') ?? ''}`.trim());

  const read = async (hostname: string) => {
    const answer = await call('GET', `/distribution-tenant/${encodeURIComponent(tenantName(hostname))}`);
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw failure('GetDistributionTenant', answer);
    return answer;
  };
  const certificateStatus = async (hostname: string): Promise<string | undefined> => {
    const answer = await call('GET', `/managed-certificate/${encodeURIComponent(tenantName(hostname))}`);
    return answer.status === 200 ? xmlText(answer.text, 'CertificateStatus') : undefined;
  };
  const status = async (hostname: string): Promise<EdgeTenantState> => {
    const tenant = await read(hostname);
    return tenant ? stateOf(tenant.text, await certificateStatus(hostname)) : { status: 'missing' };
  };

  return {
    async create(hostname) {
      const body =
        `<?xml version="1.0" encoding="UTF-8"?><CreateDistributionTenantRequest xmlns="${XMLNS}">` +
        `<ConnectionGroupId>${escapeXml(options.connectionGroupId)}</ConnectionGroupId>` +
        `<DistributionId>${escapeXml(options.distributionId)}</DistributionId>` +
        `<Domains><DomainItem><Domain>${escapeXml(hostname)}</Domain></DomainItem></Domains>` +
        `<Enabled>true</Enabled>` +
        `<ManagedCertificateRequest><PrimaryDomainName>${escapeXml(hostname)}</PrimaryDomainName><ValidationTokenHost>cloudfront</ValidationTokenHost></ManagedCertificateRequest>` +
        `<Name>${escapeXml(tenantName(hostname))}</Name></CreateDistributionTenantRequest>`;
      const answer = await call('POST', '/distribution-tenant', { body });
      if (answer.status === 201 || answer.status === 200) return { status: 'issuing' };
      // Made by an earlier try whose answer was lost: reported as it is.
      if (answer.status === 409) return status(hostname);
      throw failure('CreateDistributionTenant', answer);
    },
    status,
    async remove(hostname) {
      const tenant = await read(hostname);
      if (!tenant) return 'removed';
      let etag = tenant.etag;
      if (xmlText(tenant.text, 'Enabled') !== 'false') {
        // A tenant is deleted only once disabled: disabled first (it stops serving at once).
        const body =
          `<?xml version="1.0" encoding="UTF-8"?><UpdateDistributionTenantRequest xmlns="${XMLNS}">` +
          `<ConnectionGroupId>${escapeXml(options.connectionGroupId)}</ConnectionGroupId>` +
          `<DistributionId>${escapeXml(options.distributionId)}</DistributionId>` +
          `<Domains><DomainItem><Domain>${escapeXml(hostname)}</Domain></DomainItem></Domains><Enabled>false</Enabled></UpdateDistributionTenantRequest>`;
        const id = xmlText(tenant.text, 'Id') ?? tenantName(hostname);
        const updated = await call('PUT', `/distribution-tenant/${encodeURIComponent(id)}`, { body, headers: { 'if-match': etag } });
        if (updated.status !== 200) throw failure('UpdateDistributionTenant', updated);
        etag = updated.etag;
      }
      const id = xmlText(tenant.text, 'Id') ?? tenantName(hostname);
      const deleted = await call('DELETE', `/distribution-tenant/${encodeURIComponent(id)}`, { headers: { 'if-match': etag } });
      if (deleted.status === 204 || deleted.status === 200 || deleted.status === 404) return 'removed';
      // Refused while the disable still deploys (ResourceNotDisabled, or an ETag the deployment moved on): the tenant
      // serves nothing; the caller asks again later (the domains-check job), so none is left behind.
      if (deleted.status === 409 || deleted.status === 412) return 'disabling';
      throw failure('DeleteDistributionTenant', deleted);
    },
  };
};

/**
 * The local cloud's edge (EDGE_TENANTS_LOCAL): no CloudFront, no certificate. A new tenant is `issuing`; asked again,
 * it is `active` (so Verify shows issuing_certificate, then active at the next check, as in AWS but at once). Stateless:
 * the claim's own status carries the journey.
 */
export const localEdgeTenants = (): EdgeTenants => ({
  create: () => Promise.resolve({ status: 'issuing' }),
  status: () => Promise.resolve({ status: 'active' }),
  remove: () => Promise.resolve('removed'),
});
