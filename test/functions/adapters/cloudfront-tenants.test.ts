import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cloudFrontTenants, stateOf, tenantName } from '#adapters/cloudfront-tenants.ts';

/** The CloudFront distribution tenants adapter (decision 0055), against a recorded CloudFront: what it sends, how it reads. */
const tenantXml = (opts: { tenant: string; domain: string; enabled?: boolean }) =>
  `<?xml version="1.0"?><DistributionTenant><Id>dt_1</Id><DistributionId>E1</DistributionId><Name>learn.example.com</Name>` +
  `<Domains><DomainResult><Domain>learn.example.com</Domain><Status>${opts.domain}</Status></DomainResult></Domains>` +
  `<Enabled>${opts.enabled ?? true}</Enabled><Status>${opts.tenant}</Status></DistributionTenant>`;

type Call = { method: string; url: string; headers: Record<string, string>; body: string | undefined };
const recorded = (answers: ((call: Call) => Response)[]) => {
  const calls: Call[] = [];
  const fetch = (url: string | URL | Request, init?: RequestInit) => {
    const call = { method: init?.method ?? 'GET', url: String(url), headers: init?.headers as Record<string, string>, body: init?.body as string | undefined };
    calls.push(call);
    return Promise.resolve(answers.shift()!(call));
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
};

beforeEach(() => {
  process.env['AWS_ACCESS_KEY_ID'] = 'AKIDEXAMPLE';
  process.env['AWS_SECRET_ACCESS_KEY'] = 'secret';
});
afterEach(() => {
  delete process.env['AWS_ACCESS_KEY_ID'];
  delete process.env['AWS_SECRET_ACCESS_KEY'];
});

describe('the CloudFront tenants adapter', () => {
  it('reads a tenant as active only when deployed, its domain active and its certificate issued', () => {
    expect(stateOf(tenantXml({ tenant: 'Deployed', domain: 'active' }), 'issued')).toEqual({ status: 'active' });
    expect(stateOf(tenantXml({ tenant: 'InProgress', domain: 'active' }), 'issued')).toEqual({ status: 'issuing' });
    expect(stateOf(tenantXml({ tenant: 'Deployed', domain: 'inactive' }), 'pending-validation')).toEqual({ status: 'issuing' });
    expect(stateOf(tenantXml({ tenant: 'Deployed', domain: 'inactive' }), 'validation-timed-out')).toEqual({ status: 'failed', reason: 'the certificate is validation timed out.' });
  });

  it('names a tenant after its hostname, hashed when longer than a tenant name may be', () => {
    expect(tenantName('learn.example.com')).toBe('learn.example.com');
    expect(tenantName(`${'a'.repeat(60)}.${'b'.repeat(60)}.example.com`)).toMatch(/^domain-[0-9a-f]{40}$/);
  });

  it('creates a signed tenant with a CloudFront-managed certificate on the connection group, and reports an existing one as it is', async () => {
    const { calls, fetch } = recorded([
      () => new Response('<DistributionTenant/>', { status: 201 }),
      () => new Response('<Error><Code>EntityAlreadyExists</Code></Error>', { status: 409 }),
      () => new Response(tenantXml({ tenant: 'Deployed', domain: 'active' }), { status: 200, headers: { etag: 'E1' } }),
      () => new Response('<ManagedCertificateDetails><CertificateStatus>issued</CertificateStatus></ManagedCertificateDetails>', { status: 200 }),
    ]);
    const edge = cloudFrontTenants({ distributionId: 'EDIST', connectionGroupId: 'cg_1', fetch });
    expect(await edge.create('learn.example.com')).toEqual({ status: 'issuing' });
    expect(calls[0]).toMatchObject({ method: 'POST', url: 'https://cloudfront.amazonaws.com/2020-05-31/distribution-tenant' });
    expect(calls[0]!.body).toContain('<ConnectionGroupId>cg_1</ConnectionGroupId><DistributionId>EDIST</DistributionId>');
    expect(calls[0]!.body).toContain('<ValidationTokenHost>cloudfront</ValidationTokenHost>');
    expect(calls[0]!.headers['authorization']).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/cloudfront\/aws4_request/);
    expect(await edge.create('learn.example.com')).toEqual({ status: 'active' });
  });

  it('disables a tenant before deleting it, with the ETag each answer gave; nothing to do for a missing one', async () => {
    const { calls, fetch } = recorded([
      () => new Response(tenantXml({ tenant: 'Deployed', domain: 'active' }), { status: 200, headers: { etag: 'E1' } }),
      () => new Response(tenantXml({ tenant: 'InProgress', domain: 'active', enabled: false }), { status: 200, headers: { etag: 'E2' } }),
      () => new Response(null, { status: 204 }),
      () => new Response('<Error><Code>EntityNotFound</Code></Error>', { status: 404 }),
    ]);
    const edge = cloudFrontTenants({ distributionId: 'EDIST', connectionGroupId: 'cg_1', fetch });
    expect(await edge.remove('learn.example.com')).toBe('removed');
    expect(calls.map((c) => [c.method, c.url.replace('https://cloudfront.amazonaws.com/2020-05-31', ''), c.headers['if-match']])).toEqual([
      ['GET', '/distribution-tenant/learn.example.com', undefined],
      ['PUT', '/distribution-tenant/dt_1', 'E1'],
      ['DELETE', '/distribution-tenant/dt_1', 'E2'],
    ]);
    expect(calls[1]!.body).toContain('<Enabled>false</Enabled>');
    expect(await edge.remove('gone.example.com')).toBe('removed');
    expect(calls).toHaveLength(4);
  });

  it('reports a tenant whose delete is refused while its disable deploys as disabling, and deletes it when asked again', async () => {
    const { calls, fetch } = recorded([
      () => new Response(tenantXml({ tenant: 'InProgress', domain: 'active', enabled: false }), { status: 200, headers: { etag: 'E2' } }),
      () => new Response('<Error><Code>ResourceNotDisabled</Code></Error>', { status: 409 }),
      () => new Response(tenantXml({ tenant: 'Deployed', domain: 'active', enabled: false }), { status: 200, headers: { etag: 'E3' } }),
      () => new Response(null, { status: 204 }),
    ]);
    const edge = cloudFrontTenants({ distributionId: 'EDIST', connectionGroupId: 'cg_1', fetch });
    expect(await edge.remove('learn.example.com')).toBe('disabling');
    expect(await edge.remove('learn.example.com')).toBe('removed');
    // Already disabled: no second update, straight to the delete.
    expect(calls.map((c) => c.method)).toEqual(['GET', 'DELETE', 'GET', 'DELETE']);
    expect(calls[3]!.headers['if-match']).toBe('E3');
  });
});
