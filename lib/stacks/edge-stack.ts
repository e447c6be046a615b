import { CrossStackReferences, ReferenceStrength, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { EdgeFirewall } from '../constructs/edge-firewall.ts';

export interface EdgeStackProps extends StackProps {
  /** The account of the other stacks; the region is always us-east-1. */
  readonly account?: string;
}

/**
 * The distribution's WAF web ACL. CloudFront takes web ACLs from us-east-1 only, so this stack is pinned there
 * whatever the region of the others. The Web stack reads the ACL's ARN across regions with a weak reference
 * (CloudFormation's `Fn::GetStackOutput`): no export-writer and -reader custom resources (Lambda functions) in either
 * region, and no export that would pin the ACL in place. Absent with `-c waf=false`.
 * See docs/decisions/0009-secrets-and-edge-protection.md.
 */
export class EdgeStack extends Stack {
  readonly firewall: EdgeFirewall;

  constructor(scope: Construct, id: string, props: EdgeStackProps = {}) {
    const { account, ...rest } = props;
    super(scope, id, { ...rest, env: { ...(account ? { account } : {}), region: 'us-east-1' } });
    this.firewall = new EdgeFirewall(this, 'Firewall', { metricPrefix: 'course-platform' });
    // Weak whatever the app-wide default: a strong cross-region reference would add custom resources.
    CrossStackReferences.of(this.firewall.webAcl).produce(ReferenceStrength.WEAK);
  }
}
