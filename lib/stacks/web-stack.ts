import path from 'node:path';
import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Construct } from 'constructs';
import { repoRoot } from '../constructs/app-function.ts';
import { PagesSite } from '../constructs/pages-site.ts';
import { StaticSite, type WebConfig } from '../constructs/static-site.ts';

export interface WebStackProps extends StackProps {
  /** What the SPA's config.json holds from the other stacks; this stack adds its own PagesUrl. */
  readonly webConfig: Omit<WebConfig, 'PagesUrl'>;
  readonly domain?: { readonly name: string; readonly certificateArn: string };
  /** Defaults to web/dist. */
  readonly distDir?: string;
  /** The Edge stack's WAF web ACL (us-east-1), unless `-c waf=false`. */
  readonly webAclArn?: string;
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

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);

    this.httpApi = new HttpApi(this, 'Api', {
      description: 'Course platform API (stage, routes and authorizer: Api stack)',
      createDefaultStage: false,
    });

    const apiDomain = `${this.httpApi.apiId}.execute-api.${this.region}.${this.urlSuffix}`;
    // First, so the app's config.json can name it.
    this.pages = new PagesSite(this, 'Pages', {
      apiDomain,
      ...(props.webAclArn ? { webAclArn: props.webAclArn } : {}),
    });
    this.site = new StaticSite(this, 'Site', {
      apiDomain,
      webConfig: { ...props.webConfig, PagesUrl: this.pages.url },
      distDir: props.distDir ?? path.join(repoRoot, 'web', 'dist'),
      ...(props.domain ? { domain: props.domain } : {}),
      ...(props.webAclArn ? { webAclArn: props.webAclArn } : {}),
      ...(props.filesOrigin ? { filesOrigin: props.filesOrigin } : {}),
    });
    this.appOrigin = this.site.url;

    new CfnOutput(this, 'WebUrl', { value: this.site.url });
    new CfnOutput(this, 'PagesUrl', { value: this.pages.url, description: 'Published landing pages: <PagesUrl>/p/<slug>' });
    new CfnOutput(this, 'PagesDistributionId', { value: this.pages.distribution.distributionId });
    new CfnOutput(this, 'ApiUrl', { value: this.httpApi.apiEndpoint, description: 'The API without CloudFront; the SPA uses <WebUrl>/api' });
    new CfnOutput(this, 'DistributionId', { value: this.site.distribution.distributionId });
    new CfnOutput(this, 'SiteBucketName', { value: this.site.bucket.bucketName });
  }
}
