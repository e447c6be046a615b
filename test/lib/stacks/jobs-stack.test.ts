import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { jobs } from '#functions/routes.ts';
import { resourcesOf, synthPlatform } from './synth-platform.ts';

describe('the jobs stack', () => {
  const template = Template.fromStack(synthPlatform().jobs);

  it('schedules every job of routes.ts with its expression, invoking its own function', () => {
    const schedules = Object.values(resourcesOf(template, 'AWS::Scheduler::Schedule')).map((s) => s.Properties);
    expect(schedules).toHaveLength(jobs.length);
    const functions = resourcesOf(template, 'AWS::Lambda::Function');
    for (const job of jobs) {
      const [functionId] = Object.entries(functions).find(([, f]) =>
        String(f.Properties['Description']).includes(`functions/${job.handler}.ts`),
      )!;
      const schedule = schedules.find((s) => JSON.stringify(s['Target']).includes(functionId))!;
      expect(schedule['ScheduleExpression']).toBe(job.schedule);
      expect(schedule['State']).toBe('ENABLED');
    }
  });

  it('lets the scheduler role invoke the job function and nothing else', () => {
    const schedulerPolicies = Object.entries(resourcesOf(template, 'AWS::IAM::Policy'))
      .filter(([id]) => id.startsWith('SchedulerRoleForTarget'))
      .map(([, p]) => p.Properties['PolicyDocument'] as { Statement: { Action: unknown }[] });
    expect(schedulerPolicies.length).toBeGreaterThan(0);
    for (const doc of schedulerPolicies) {
      expect(doc.Statement.map((s) => s.Action)).toEqual(['lambda:InvokeFunction']);
    }
  });
});
