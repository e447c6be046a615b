import { Aspects, CfnResource, type IAspect, Validations } from 'aws-cdk-lib';
import { CfnPolicy } from 'aws-cdk-lib/aws-iam';
import { rules } from 'cdk-nag';
import type { IConstruct } from 'constructs';

/**
 * Acknowledges the AwsSolutions-IAM5 (wildcard) findings of the IAM policies under `scope`, each with `reason`.
 * Only for policies that CDK itself writes and we cannot narrow (the BucketDeployment handler, the Scheduler
 * target role): their finding ids embed generated logical ids and the region, so they are read from the policy
 * once it is final (an aspect runs after every grant) with cdk-nag's own rule, instead of being copied by hand.
 */
export const acknowledgeGeneratedWildcards = (scope: IConstruct, reason: string): void => {
  Aspects.of(scope).add(new AcknowledgeWildcards(reason));
};

class AcknowledgeWildcards implements IAspect {
  constructor(private readonly reason: string) {}

  visit(node: IConstruct): void {
    if (!(node instanceof CfnPolicy) || !CfnResource.isCfnResource(node)) return;
    const findings: unknown = rules.iam.IAMNoWildcardPermissions(node);
    if (!Array.isArray(findings)) return;
    for (const finding of findings as string[]) {
      Validations.of(node).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason: this.reason });
    }
  }
}
