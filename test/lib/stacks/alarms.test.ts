import type { NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { eventHandlers, jobs, routes, triggers } from '#functions/routes.ts';
import { alarmTopicName } from '#lib/constructs/alarms.ts';
import { nestedStacksOf, resourcesOf, synthPlatform, unacknowledgedNagFindings } from './synth-platform.ts';

type Props = Record<string, unknown>;
type Json = { Resources?: Record<string, { Type: string; Properties: Props }>; Outputs?: Record<string, { Value: unknown }> };

/**
 * Every alarm of a top-level stack and its nested stacks, with its FunctionName dimension resolved to the logical id
 * of the function it watches: an alarm in a nested stack names it through a parameter, which the parent fills from
 * an output of the function's own nested stack.
 */
const alarmsOf = (stack: Stack) => {
  const templates = new Map<Stack, Json>([[stack, Template.fromStack(stack).toJSON() as Json]]);
  const nested = nestedStacksOf(stack);
  for (const child of nested) templates.set(child, Template.fromStack(child).toJSON() as Json);
  const byResourceId = new Map<string, NestedStack>(nested.map((child) => [stack.getLogicalId(child.nestedStackResource as never), child]));
  const functionOf = (owner: Stack, value: unknown): { stack: Stack; id: string } | undefined => {
    const ref = (value as { Ref?: string }).Ref;
    if (!ref) return undefined;
    if (templates.get(owner)!.Resources?.[ref]) return { stack: owner, id: ref };
    // A parameter of a nested stack: what the parent passes, an output of another nested stack.
    const self = [...byResourceId.entries()].find(([, child]) => child === owner)![0];
    const passed = templates.get(stack)!.Resources![self]!.Properties['Parameters'] as Record<string, { 'Fn::GetAtt': [string, string] }>;
    const [source, output] = passed[ref]!['Fn::GetAtt'];
    const from = byResourceId.get(source)!;
    return functionOf(from, templates.get(from)!.Outputs![output.replace(/^Outputs\./, '')]!.Value);
  };
  return [...templates.entries()].flatMap(([owner, json]) =>
    Object.values(json.Resources ?? {})
      .filter((r) => r.Type === 'AWS::CloudWatch::Alarm')
      .map((r) => {
        const dimension = (r.Properties['Dimensions'] as { Name: string; Value: unknown }[] | undefined)?.find((d) => d.Name === 'FunctionName');
        return { props: r.Properties, name: r.Properties['AlarmName'] as string, fn: dimension ? functionOf(owner, dimension.Value) : undefined };
      }),
  );
};

/** Our functions of a top-level stack and its nested stacks (not CDK's own deployment handler), with their names. */
const functionsOf = (stack: Stack) =>
  [stack, ...nestedStacksOf(stack)].flatMap((owner) =>
    Object.entries(resourcesOf(Template.fromStack(owner), 'AWS::Lambda::Function'))
      .filter(([id]) => !id.startsWith('CustomCDKBucketDeployment'))
      .map(([id, fn]) => ({
        stack: owner,
        id,
        name: String(fn.Properties['Description']).split(' (')[0]!,
        timeoutSeconds: fn.Properties['Timeout'] as number,
      })),
  );

describe('the alarms of the platform', () => {
  const platform = synthPlatform();
  const watched = [platform.data, platform.api, platform.jobs];

  it.each(watched.map((s) => s.stackName))(
    "%s: each function has an errors alarm and a p99 duration alarm at 80 percent of that function's own timeout",
    (stackName) => {
      const stack = watched.find((s) => s.stackName === stackName)!;
      const alarms = alarmsOf(stack);
      const functions = functionsOf(stack);
      expect(functions.length).toBeGreaterThan(0);
      for (const fn of functions) {
        const on = alarms.filter((a) => a.fn?.stack === fn.stack && a.fn.id === fn.id);
        const errors = on.find((a) => a.props['MetricName'] === 'Errors');
        const duration = on.find((a) => a.props['MetricName'] === 'Duration');
        expect(errors?.name, fn.name).toBe(`${stack.stackName}-${fn.name}-errors`);
        expect(duration?.name, fn.name).toBe(`${stack.stackName}-${fn.name}-duration`);
        expect(duration?.props, fn.name).toMatchObject({ ExtendedStatistic: 'p99', Threshold: fn.timeoutSeconds * 1000 * 0.8 });
      }
    },
  );

  it('covers every route, event handler, job and pool trigger of routes.ts', () => {
    const names = watched.flatMap((s) => alarmsOf(s).map((a) => a.name));
    const expected = [
      ...routes.map((r) => `CoursePlatformApi-${r.name}`),
      `CoursePlatformApi-${eventHandlers.sesFeedback.name}`,
      ...jobs.map((j) => `CoursePlatformJobs-${j.name}`),
      `CoursePlatformData-${triggers.preSignUp.name}`,
      `CoursePlatformData-${triggers.postConfirmation.name}`,
    ];
    for (const prefix of expected) expect(names, prefix).toEqual(expect.arrayContaining([`${prefix}-errors`, `${prefix}-duration`]));
  });

  it('tolerates a few errors of pre sign-up only, whose refusals are thrown errors', () => {
    const thresholds = watched.flatMap(alarmsOf).filter((a) => a.props['MetricName'] === 'Errors');
    for (const alarm of thresholds) {
      expect(alarm.props['Threshold'], alarm.name).toBe(alarm.name === 'CoursePlatformData-pre-sign-up-errors' ? 10 : 1);
    }
  });

  it("alarms on the API's 5xx and 429 shares, on Lambda throttling and on SES's bounce and complaint rates in the api stack", () => {
    const names = alarmsOf(platform.api).map((a) => a.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'CoursePlatformApi-api-5xx-rate',
        'CoursePlatformApi-api-429-rate',
        'CoursePlatformApi-lambda-throttles',
        'CoursePlatformApi-ses-bounce-rate',
        'CoursePlatformApi-ses-complaint-rate',
        'CoursePlatformApi-orders-unfulfilled',
      ]),
    );
  });

  it('creates the alarm topic in the data stack; every alarm of every stack sends ALARM and OK to it, the later stacks by its ARN', () => {
    const data = Template.fromStack(platform.data);
    const [topicId] = Object.entries(resourcesOf(data, 'AWS::SNS::Topic')).find(([, t]) => t.Properties['TopicName'] === alarmTopicName)!;
    data.resourceCountIs('AWS::SNS::Subscription', 0);
    for (const stack of watched) {
      for (const alarm of alarmsOf(stack)) {
        const actions = alarm.props['AlarmActions'] as unknown[];
        expect(actions, alarm.name).toHaveLength(1);
        expect(alarm.props['OKActions'], alarm.name).toEqual(actions);
        const text = JSON.stringify(actions[0]);
        expect(stack === platform.data ? text === JSON.stringify({ Ref: topicId }) : text.endsWith(`:${alarmTopicName}"]]}`), `${alarm.name}: ${text}`).toBe(true);
      }
    }
  });

  it('uses the topic of alarmTopicArn everywhere, and creates none', () => {
    const arn = 'arn:aws:sns:eu-west-2:123456789012:ops-alarms';
    const given = synthPlatform({ context: { alarmTopicArn: arn } });
    const topics = Object.values(resourcesOf(Template.fromStack(given.data), 'AWS::SNS::Topic'));
    expect(topics.map((t) => t.Properties['TopicName'])).not.toContain(alarmTopicName);
    const alarms = [given.data, given.api, given.jobs].flatMap(alarmsOf);
    expect(alarms.length).toBeGreaterThan(200);
    for (const alarm of alarms) {
      expect(alarm.props['AlarmActions'], alarm.name).toEqual([arn]);
      expect(alarm.props['OKActions'], alarm.name).toEqual([arn]);
    }
    expect(unacknowledgedNagFindings(given.data)).toEqual([]);
  });

  it('subscribes alarmEmail to the topic it creates, and stays clean under cdk-nag', () => {
    const subscribed = synthPlatform({ context: { alarmEmail: 'ops@example.com' } });
    Template.fromStack(subscribed.data).hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com' });
    expect(unacknowledgedNagFindings(subscribed.data)).toEqual([]);
  });

  it('keeps the alarms of the route groups out of the groups, so they take no room from the routes', () => {
    for (const group of nestedStacksOf(platform.api).filter((s) => s.node.path.includes('/Routes/'))) {
      expect(Object.keys(resourcesOf(Template.fromStack(group), 'AWS::CloudWatch::Alarm')), group.node.path).toEqual([]);
    }
  });
});
