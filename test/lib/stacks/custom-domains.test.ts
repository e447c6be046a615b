import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourcesOf, synthPlatform, unacknowledgedNagFindings, withNestedStacks } from './synth-platform.ts';

/** The custom domains at the edge (issue 32, decision 0055): the multi-tenant distribution, its connection group, the functions' grants. */
const distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
fs.writeFileSync(path.join(distDir, 'index.html'), '<!doctype html>');
afterAll(() => fs.rmSync(distDir, { recursive: true, force: true }));

let platform: ReturnType<typeof synthPlatform>;
let web: Template;
let tenantOnly: Record<string, unknown>;
beforeAll(() => {
  platform = synthPlatform({ distDir });
  web = Template.fromStack(platform.web);
  tenantOnly = Object.values(resourcesOf(web, 'AWS::CloudFront::Distribution'))
    .map((d) => d.Properties['DistributionConfig'] as Record<string, unknown>)
    .find((config) => config['ConnectionMode'] === 'tenant-only')!;
});

describe('the custom domains edge', () => {
  it('is a tenant-only (multi-tenant) distribution of the SPA bucket and only the public API routes, GET and HEAD, over https', () => {
    expect(tenantOnly).toBeDefined();
    expect(tenantOnly['DefaultCacheBehavior']).toMatchObject({ TargetOriginId: 'site', AllowedMethods: ['GET', 'HEAD'], ViewerProtocolPolicy: 'redirect-to-https' });
    expect(tenantOnly['CacheBehaviors']).toEqual([expect.objectContaining({ PathPattern: '/api/public/*', TargetOriginId: 'api', AllowedMethods: ['GET', 'HEAD'], ViewerProtocolPolicy: 'https-only' })]);
    const origins = tenantOnly['Origins'] as { Id: string; OriginCustomHeaders?: { HeaderName: string }[]; OriginAccessControlId?: unknown }[];
    expect(origins.find((o) => o.Id === 'api')?.OriginCustomHeaders).toEqual([expect.objectContaining({ HeaderName: 'x-origin-verify' })]);
    expect(origins.find((o) => o.Id === 'site')?.OriginAccessControlId).toBeDefined();
    expect(tenantOnly['Logging']).toBeDefined();
  });

  it('has a connection group whose routing endpoint is the CNAME target the stack outputs', () => {
    web.resourceCountIs('AWS::CloudFront::ConnectionGroup', 1);
    const outputs = web.toJSON()['Outputs'] as Record<string, { Value: unknown }>;
    expect(JSON.stringify(outputs['CustomDomainsTarget']?.Value)).toContain('RoutingEndpoint');
  });

  it('gives the domain functions and the job exactly the tenant actions, and their configuration', () => {
    const api = withNestedStacks(platform.api);
    const policies = Object.values(resourcesOf(api, 'AWS::IAM::Policy')).map((p) => JSON.stringify(p.Properties['PolicyDocument']));
    const tenantPolicies = policies.filter((p) => p.includes('cloudfront:CreateDistributionTenant'));
    // add, list, verify, delete (the public lookup needs none).
    expect(tenantPolicies).toHaveLength(4);
    for (const policy of tenantPolicies) expect(policy).toContain('distribution-tenant/*');
    const functions = Object.values(resourcesOf(api, 'AWS::Lambda::Function')).map((f) => JSON.stringify(f.Properties['Environment'] ?? {}));
    const configured = functions.filter((env) => env.includes('EDGE_TENANTS_DISTRIBUTION_ID'));
    expect(configured).toHaveLength(4);
    for (const env of configured) {
      for (const key of ['DOMAIN_CNAME_TARGET', 'PLATFORM_HOSTNAMES', 'EDGE_TENANTS_CONNECTION_GROUP_ID']) expect(env).toContain(key);
      expect(env).not.toContain('DNS_RESOLVER');
      expect(env).not.toContain('EDGE_TENANTS_LOCAL');
    }
    const jobs = Template.fromStack(platform.jobs);
    expect(JSON.stringify(jobs.toJSON())).toContain('cloudfront:CreateDistributionTenant');
  });

  it('is cdk-nag clean', () => {
    expect(unacknowledgedNagFindings(platform.web)).toEqual([]);
  });
});
