import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { campaignSenderStarter } from '#adapters/lambda-job-starter.ts';
import { resetConfig } from '#functions/config.ts';

const lambda = mockClient(LambdaClient);
beforeAll(() => {
  process.env['CAMPAIGN_SENDER_FUNCTION'] = 'CoursePlatformJobs-campaign-sender';
  resetConfig();
});
afterEach(() => lambda.reset());
afterAll(() => {
  lambda.restore();
  delete process.env['CAMPAIGN_SENDER_FUNCTION'];
  resetConfig();
});

describe('the campaign sender starter', () => {
  it('invokes the job function asynchronously (Event), once, and reports it started', async () => {
    lambda.on(InvokeCommand).resolves({ StatusCode: 202 });
    const reported: Record<string, unknown>[] = [];
    await campaignSenderStarter((fields) => reported.push(fields)).start();
    const calls = lambda.commandCalls(InvokeCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toMatchObject({ FunctionName: 'CoursePlatformJobs-campaign-sender', InvocationType: 'Event' });
    expect(reported).toEqual([{ senderStart: 'started' }]);
  });

  it('reports a failure with its cause and passes it on, without retrying', async () => {
    lambda.on(InvokeCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'TooManyRequestsException' }));
    const reported: Record<string, unknown>[] = [];
    await expect(campaignSenderStarter((fields) => reported.push(fields)).start()).rejects.toThrow('Rate exceeded');
    expect(lambda.commandCalls(InvokeCommand)).toHaveLength(1);
    expect(reported).toEqual([{ senderStart: 'failed', senderStartError: expect.objectContaining({ errorName: 'TooManyRequestsException', errorMessage: 'Rate exceeded' }) }]);
  });
});
