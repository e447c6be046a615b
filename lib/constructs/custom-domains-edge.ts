import { Stack, Validations } from 'aws-cdk-lib';
import { CachePolicy, CfnConnectionGroup, CfnDistribution, CfnOriginAccessControl, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { ORIGIN_HEADER } from '#middleware/origin.ts';
import { accessLogBucket } from './access-logs.ts';

export interface CustomDomainsEdgeProps {
  /** The SPA bucket the app distribution serves: the storefront on a custom domain is the same SPA. */
  readonly siteBucket: IBucket;
  /** Host name of the HTTP API, for `/api/public/*` (the storefront's reads, its domain lookup first). */
  readonly apiDomain: string;
  /** The app distribution's `x-origin-verify` value: the public routes answer it (decision 0028). */
  readonly originSecret: string;
  readonly webAclArn?: string;
}

/**
 * The creators' custom domains at the edge (issue 32, decision 0055): a CloudFront **multi-tenant** distribution
 * (`ConnectionMode: tenant-only`) serving the SPA from the site bucket and the API's public routes, and the connection
 * group its tenants use, whose routing endpoint is the CNAME target every custom domain points at. The tenants
 * themselves (one per verified hostname, each with a CloudFront-managed ACM certificate) are made at run time by the
 * domain functions (functions/adapters/cloudfront-tenants.ts), never by CloudFormation. L1 resources: aws-cdk-lib has
 * no L2 for either. Only GET and HEAD, only the storefront's public reads: sign-in and dashboards stay on the app's
 * own domain.
 */
export class CustomDomainsEdge extends Construct {
  readonly distribution: CfnDistribution;
  readonly connectionGroup: CfnConnectionGroup;
  readonly distributionArn: string;

  constructor(scope: Construct, id: string, props: CustomDomainsEdgeProps) {
    super(scope, id);
    const logs = accessLogBucket(this);
    const stack = Stack.of(this);

    const oac = new CfnOriginAccessControl(this, 'SiteAccess', {
      originAccessControlConfig: {
        name: `${stack.stackName}-custom-domains-site`.slice(0, 64),
        description: 'Custom domains: the SPA bucket, signed requests only',
        originAccessControlOriginType: 's3',
        signingBehavior: 'always',
        signingProtocol: 'sigv4',
      },
    });

    this.connectionGroup = new CfnConnectionGroup(this, 'ConnectionGroup', {
      name: `${stack.stackName}-custom-domains`.slice(0, 128),
      enabled: true,
      ipv6Enabled: true,
    });

    this.distribution = new CfnDistribution(this, 'Distribution', {
      distributionConfig: {
        comment: 'Course platform: creators custom domains (multi-tenant; tenants made at run time)',
        enabled: true,
        connectionMode: 'tenant-only',
        defaultRootObject: 'index.html',
        httpVersion: 'http2',
        ...(props.webAclArn ? { webAclId: props.webAclArn } : {}),
        logging: { bucket: logs.bucketRegionalDomainName, prefix: 'custom-domains/' },
        origins: [
          { id: 'site', domainName: props.siteBucket.bucketRegionalDomainName, originAccessControlId: oac.attrId, s3OriginConfig: { originAccessIdentity: '' } },
          {
            id: 'api',
            domainName: props.apiDomain,
            customOriginConfig: { originProtocolPolicy: 'https-only', originSslProtocols: ['TLSv1.2'] },
            originCustomHeaders: [{ headerName: ORIGIN_HEADER, headerValue: props.originSecret }],
          },
        ],
        defaultCacheBehavior: {
          targetOriginId: 'site',
          viewerProtocolPolicy: 'redirect-to-https',
          allowedMethods: ['GET', 'HEAD'],
          compress: true,
          cachePolicyId: CachePolicy.CACHING_OPTIMIZED.cachePolicyId,
        },
        cacheBehaviors: [
          {
            // The storefront's reads only; every other /api path falls to the bucket, which has no such object (the SPA's 404).
            pathPattern: '/api/public/*',
            targetOriginId: 'api',
            viewerProtocolPolicy: 'https-only',
            allowedMethods: ['GET', 'HEAD'],
            compress: true,
            cachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
            originRequestPolicyId: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
          },
        ],
        // The SPA's own routes (/, /c/..., /verify/...) are index.html.
        customErrorResponses: [
          { errorCode: 403, responseCode: 200, responsePagePath: '/index.html' },
          { errorCode: 404, responseCode: 200, responsePagePath: '/index.html' },
        ],
      },
    });
    this.distributionArn = stack.formatArn({ service: 'cloudfront', region: '', resource: 'distribution', resourceName: this.distribution.attrId });

    // The site bucket admits this distribution too (its OAC signs each request).
    props.siteBucket.addToResourcePolicy(
      new PolicyStatement({
        actions: ['s3:GetObject'],
        principals: [new ServicePrincipal('cloudfront.amazonaws.com')],
        resources: [props.siteBucket.arnForObjects('*')],
        conditions: { StringEquals: { 'AWS:SourceArn': this.distributionArn } },
      }),
    );

    Validations.of(this.distribution).acknowledge(
      { id: 'AwsSolutions-CFR1', reason: 'A creator sells worldwide on their own domain: no geographic restriction by design.' },
      {
        id: 'AwsSolutions-CFR4',
        reason: "A multi-tenant distribution has no certificate of its own: each tenant serves its creator's hostname with a CloudFront-managed ACM certificate (decision 0055).",
      },
    );
    if (!props.webAclArn) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR2',
        reason: 'WAF switched off on purpose with -c waf=false (a cheap sandbox); deployments people use keep the default, waf=true.',
      });
    }
  }

  /** The hostname custom domains point their CNAME at. */
  get cnameTarget(): string {
    return this.connectionGroup.attrRoutingEndpoint;
  }
}
