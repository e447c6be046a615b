import { App, NestedStack, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { type CoursePlatformOptions, createCoursePlatform } from '#lib/stacks/course-platform.ts';
import { readDeploySettings } from '#lib/stacks/deploy-settings.ts';

/** The region the tests deploy to: the cdk CLI always gives bin/app.ts one (CDK_DEFAULT_REGION). */
export const testRegion = 'eu-west-2';

/**
 * The whole CDK app as bin/app.ts builds it, without bundling (`aws:cdk:bundling-stacks: []`) and without the
 * built-in CloudFormation validation: ~1 s instead of ~10 s. One test elsewhere bundles for real.
 */
export const synthPlatform = (
  options: Partial<Omit<CoursePlatformOptions, 'settings'>> & { context?: Record<string, unknown> } = {},
) => {
  // The default app is the same app every time it is asked for in a file (the tests only read it): synthesized once.
  if (Object.keys(options).length === 0) return (defaultPlatform ??= buildPlatform(options));
  return buildPlatform(options);
};
let defaultPlatform: ReturnType<typeof buildPlatform> | undefined;

const buildPlatform = (options: Partial<Omit<CoursePlatformOptions, 'settings'>> & { context?: Record<string, unknown> }) => {
  const { context, ...rest } = options;
  const app = new App({
    context: { 'aws:cdk:bundling-stacks': [], ...context },
    builtinCloudFormationValidation: false,
  });
  const stacks = createCoursePlatform(app, { settings: readDeploySettings(app), env: { region: testRegion }, ...rest });
  return { app, ...stacks };
};

/** The nested stacks of a stack (the api stack's route groups), in construct order. */
export const nestedStacksOf = (stack: Stack): NestedStack[] => stack.node.findAll().filter((c): c is NestedStack => c instanceof NestedStack);

/**
 * A stack's template with its nested stacks' resources merged in (logical ids are unique across them): the api
 * stack's routes and functions sit in nested route groups (lib/constructs/api-routes.ts), read here as one template.
 */
export const withNestedStacks = (stack: Stack): Template => {
  let merged = mergedTemplates.get(stack);
  if (!merged) mergedTemplates.set(stack, (merged = mergeNestedStacks(stack)));
  return merged;
};
const mergedTemplates = new WeakMap<Stack, Template>();

const mergeNestedStacks = (stack: Stack): Template => {
  const parent = Template.fromStack(stack).toJSON() as { Resources: Record<string, unknown> };
  const nested = nestedStacksOf(stack).map((child) => (Template.fromStack(child).toJSON() as { Resources: Record<string, unknown> }).Resources);
  return Template.fromJSON({ ...parent, Resources: Object.assign({}, parent.Resources, ...nested) });
};

/**
 * Every resource of a type in a template, by logical id. Found once per template and type: `findResources` matches
 * every resource afresh, and the route tests ask for the functions and policies once per route (~300 of them).
 */
export const resourcesOf = (template: Template, type: string): Record<string, { Properties: Record<string, unknown> }> => {
  let byType = foundResources.get(template);
  if (!byType) foundResources.set(template, (byType = new Map()));
  let found = byType.get(type);
  if (!found) byType.set(type, (found = template.findResources(type) as Record<string, { Properties: Record<string, unknown> }>));
  return found;
};
const foundResources = new WeakMap<Template, Map<string, Record<string, { Properties: Record<string, unknown> }>>>();

/** The app's distribution (SPA + /api) of the web stack, which also holds the pages distribution. */
export const appDistributionOf = (template: Template): Record<string, unknown> =>
  Object.values(resourcesOf(template, 'AWS::CloudFront::Distribution'))
    .map((d) => d.Properties['DistributionConfig'] as Record<string, unknown>)
    .find((config) => config['Comment'] === 'Course platform: SPA + /api')!;

/** cdk-nag AwsSolutions findings that nobody acknowledged, as readable lines (empty when clean). */
export const unacknowledgedNagFindings = (stack: Stack): string[] => {
  Template.fromStack(stack); // synthesizes: aspects (some acknowledgements) run before the check
  const report = new AwsSolutionsChecks().validateScope(stack);
  return report.violations.flatMap((v) =>
    v.violatingResources.map((r) => `${v.severity} ${v.ruleName} at ${r.constructPath}: ${v.description}`),
  );
};
