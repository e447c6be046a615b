import { Template } from 'aws-cdk-lib/assertions';
import { Validations } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { NODE_MAJOR } from '#lib/constructs/bundling.ts';
import { nestedStacksOf, synthPlatform, unacknowledgedNagFindings, withNestedStacks } from './synth-platform.ts';

const { app, data, edge, web, api, jobs } = synthPlatform();
const stacks = [data, ...(edge ? [edge] : []), web, api, jobs];

describe('every stack', () => {
  it('includes the Edge stack by default (WAF on)', () => {
    expect(edge).toBeDefined();
  });

  it.each(stacks.map((s) => [s.stackName, s] as const))(
    `%s runs our functions on Node.js ${NODE_MAJOR} (the runtime everything local runs on) arm64 with X-Ray and a log group`,
    (_name, stack) => {
      const functions = Object.entries(withNestedStacks(stack).findResources('AWS::Lambda::Function')).filter(
        ([id]) => !id.startsWith('CustomCDKBucketDeployment'), // CDK's own deployment handler (Python)
      );
      for (const [id, fn] of functions) {
        expect(fn.Properties, id).toMatchObject({
          Runtime: `nodejs${NODE_MAJOR}.x`,
          Architectures: ['arm64'],
          TracingConfig: { Mode: 'Active' },
          LoggingConfig: { LogGroup: expect.anything() },
        });
      }
    },
  );

  it.each(stacks.flatMap((s) => [s, ...nestedStacksOf(s)]).map((s) => [s.node.path, s] as const))(
    '%s stays well under CloudFormation\'s 500 resources per stack (room for the routes still to come)',
    (_name, stack) => {
      expect(Object.keys(Template.fromStack(stack).toJSON().Resources ?? {}).length).toBeLessThan(350);
    },
  );

  it.each(stacks.map((s) => [s.stackName, s] as const))('%s has no unacknowledged cdk-nag AwsSolutions finding', (_n, stack) => {
    expect(unacknowledgedNagFindings(stack)).toEqual([]);
  });

  it('gives every acknowledgement a reason of substance', () => {
    const acknowledgements = app.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
      .flatMap((m) => Object.entries(m.data as Record<string, string>));
    expect(acknowledgements.length).toBeGreaterThan(0);
    for (const [id, reason] of acknowledgements) expect(reason.length, id).toBeGreaterThan(30);
  });
});
