import path from 'node:path';
import { CfnOutput, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { DomainName, HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { repoRoot } from '../constructs/app-function.ts';
import type { FunctionPlatform } from '../constructs/app-function.ts';
import { CustomDomainsEdge } from '../constructs/custom-domains-edge.ts';
import { PagesSite } from '../constructs/pages-site.ts';
import { StaticSite, type WebConfig } from '../constructs/static-site.ts';

/** What the distributions send the API, for the Api stack (decision 0028). */
export interface ApiEdge {
  /** The values of `x-origin-verify` (dynamic references to the secrets, resolved at deployment). */
  readonly originSecrets: { readonly app: string; readonly pages: string };
  /** The API's own custom domain, when `apiOrigin` is set: the stage is mapped onto it. */
  readonly apiDomain?: DomainName;
}

export interface WebStackProps extends StackProps {
  /** What the SPA's config.json holds from the other stacks; this stack adds its own PagesUrl. */
  readonly webConfig: Omit<WebConfig, 'PagesUrl'>;
  readonly domain?: { readonly name: string; readonly certificateArn: string };
  /** Defaults to web/dist. */
  readonly distDir?: string;
  /** The Edge stack's WAF web ACL (us-east-1), unless `-c waf=false`. */
  readonly webAclArn?: string;
  /** The API's own custom domain and its regional certificate: the execute-api endpoint is then disabled. */
  readonly apiOrigin?: { readonly domainName: string; readonly certificateArn: string };
  /** The data stack's course files bucket origin (https://<bucket>.s3.<region>.amazonaws.com), for the app's CSP. */
  readonly filesOrigin?: string;
}

/**
 * The public edge: the CloudFront distribution over the SPA bucket and the HTTP API's endpoint, and the pages
 * distribution that serves published landing pages from an origin of their own (lib/constructs/pages-site.ts).
 * The HTTP API resource itself lives here, empty; the Api stack adds its stage, authorizer, routes and functions.
 * That order (Web before Api) lets every function know the app's origin (APP_ORIGIN) without a cycle between the
 * distribution (which needs the API's host) and the functions (which need the distribution's host).
 * See docs/decisions/0002-cloud-function-configuration.md.
 */
export class WebStack extends Stack {
  readonly httpApi: HttpApi;
  readonly site: StaticSite;
  readonly pages: PagesSite;
  /** https://<domain or distribution host>: APP_ORIGIN of the functions. */
  readonly appOrigin: string;
  readonly edge: ApiEdge;
  /** The creators' custom domains (decision 0055): the multi-tenant distribution and its connection group. */
  readonly customDomainsEdge: CustomDomainsEdge;
  /** What the domain functions are given (capability 'custom-domains'). */
  readonly customDomains: NonNullable<FunctionPlatform['customDomains']>;

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);

    // The API is reached through CloudFront only (decision 0028): with its own domain, its execute-api endpoint is off.
    this.httpApi = new HttpApi(this, 'Api', {
      description: 'Course platform API (stage, routes and authorizer: Api stack)',
      createDefaultStage: false,
      disableExecuteApiEndpoint: props.apiOrigin !== undefined,
    });
    const apiCustomDomain = props.apiOrigin
      ? new DomainName(this, 'ApiOriginDomain', {
          domainName: props.apiOrigin.domainName,
          certificate: Certificate.fromCertificateArn(this, 'ApiOriginCertificate', props.apiOrigin.certificateArn),
        })
      : undefined;
    const apiDomain = props.apiOrigin?.domainName ?? `${this.httpApi.apiId}.execute-api.${this.region}.${this.urlSuffix}`;

    // Generated at deployment, never in git or the template: what each distribution adds as `x-origin-verify`.
    const originSecret = (id: string, description: string) => {
      const secret = new Secret(this, id, { description, generateSecretString: { excludePunctuation: true, passwordLength: 48 } });
      Validations.of(secret).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason: 'An origin header value, not a credential: it only proves a request came through this CloudFront distribution. Rotated by a new value and a deployment of the Web and Api stacks (docs/deploy.md).',
      });
      return secret.secretValue.unsafeUnwrap();
    };
    const originSecrets = {
      app: originSecret('OriginSecret', 'Course platform: x-origin-verify of the app distribution (decision 0028)'),
      pages: originSecret('PagesOriginSecret', 'Course platform: x-origin-verify of the pages distribution (decision 0028)'),
    };
    this.edge = { originSecrets, ...(apiCustomDomain ? { apiDomain: apiCustomDomain } : {}) };

    // First, so the app's config.json can name it.
    this.pages = new PagesSite(this, 'Pages', {
      apiDomain,
      originSecret: originSecrets.pages,
      ...(props.webAclArn ? { webAclArn: props.webAclArn } : {}),
    });
    this.site = new StaticSite(this, 'Site', {
      apiDomain,
      originSecret: originSecrets.app,
      webConfig: { ...props.webConfig, PagesUrl: this.pages.url },
      distDir: props.distDir ?? path.join(repoRoot, 'web', 'dist'),
      ...(props.domain ? { domain: props.domain } : {}),
      ...(props.webAclArn ? { webAclArn: props.webAclArn } : {}),
      ...(props.filesOrigin ? { filesOrigin: props.filesOrigin } : {}),
    });
    this.appOrigin = this.site.url;

    this.customDomainsEdge = new CustomDomainsEdge(this, 'CustomDomains', {
      siteBucket: this.site.bucket,
      apiDomain,
      originSecret: originSecrets.app,
      ...(props.webAclArn ? { webAclArn: props.webAclArn } : {}),
    });
    this.customDomains = {
      distributionId: this.customDomainsEdge.distribution.attrId,
      distributionArn: this.customDomainsEdge.distributionArn,
      connectionGroupId: this.customDomainsEdge.connectionGroup.attrId,
      cnameTarget: this.customDomainsEdge.cnameTarget,
      // No creator may claim the app's or the pages' hostname, nor anything under them.
      platformHostnames: [props.domain?.name ?? this.site.distribution.distributionDomainName, this.pages.distribution.distributionDomainName].join(','),
    };

    new CfnOutput(this, 'WebUrl', { value: this.site.url });
    new CfnOutput(this, 'PagesUrl', { value: this.pages.url, description: 'Published landing pages: <PagesUrl>/p/<slug>' });
    new CfnOutput(this, 'PagesDistributionId', { value: this.pages.distribution.distributionId });
    // The API answers only through CloudFront (decision 0028): its URL is the app's, whose /api/* is the API.
    new CfnOutput(this, 'ApiUrl', { value: this.site.url, description: 'The API: <ApiUrl>/api/... through CloudFront (the only way in)' });
    if (apiCustomDomain) {
      new CfnOutput(this, 'ApiOriginTarget', {
        value: apiCustomDomain.regionalDomainName,
        description: 'Point apiOriginDomainName at this (CNAME or alias record): CloudFront reaches the API there',
      });
    }
    new CfnOutput(this, 'CustomDomainsTarget', {
      value: this.customDomains.cnameTarget,
      description: "Custom domains: every creator's hostname is a CNAME to this (the connection group's routing endpoint)",
    });
    new CfnOutput(this, 'CustomDomainsDistributionId', { value: this.customDomains.distributionId });
    new CfnOutput(this, 'DistributionId', { value: this.site.distribution.distributionId });
    new CfnOutput(this, 'SiteBucketName', { value: this.site.bucket.bucketName });
  }
}
