import { AdminAddUserToGroupCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { PostConfirmationTriggerEvent, PreSignUpTriggerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as postConfirmation } from '#functions/triggers/post-confirmation.ts';
import { handler as preSignUp } from '#functions/triggers/pre-sign-up.ts';

const dynamo = mockClient(DynamoDBDocumentClient);
const cognito = mockClient(CognitoIdentityProviderClient);

beforeEach(() => {
  dynamo.reset();
  cognito.reset();
});

const preEvent = (source: string, clientMetadata: Record<string, string> = {}) =>
  ({
    version: '1',
    region: 'eu-west-2',
    userPoolId: 'pool',
    userName: 'new@example.com',
    triggerSource: source,
    callerContext: { awsSdkVersion: '3', clientId: 'client' },
    request: { userAttributes: { email: 'new@example.com' }, clientMetadata },
    response: { autoConfirmUser: false, autoVerifyEmail: false, autoVerifyPhone: false },
  }) as unknown as PreSignUpTriggerEvent;

const postEvent = (source: string) =>
  ({
    version: '1',
    region: 'eu-west-2',
    userPoolId: 'pool',
    userName: 'user-name-1',
    triggerSource: source,
    callerContext: { awsSdkVersion: '3', clientId: 'client' },
    request: { userAttributes: { sub: 'sub-1', email: 'New@Example.com' } },
    response: {},
  }) as unknown as PostConfirmationTriggerEvent;

describe('pre sign-up trigger', () => {
  // Issue 27 point 4: the email is no longer verified at sign-up (nobody showed they own it): its owner verifies it.
  it('auto-confirms a creator sign-up and leaves its email unverified', async () => {
    const out = await preSignUp(preEvent('PreSignUp_SignUp', { role: 'creator' }));
    expect(out.response).toMatchObject({ autoConfirmUser: true, autoVerifyEmail: false });
  });

  it('refuses a sign-up asking for admin with a message the sign-up form can show', async () => {
    await expect(preSignUp(preEvent('PreSignUp_SignUp', { role: 'admin' }))).rejects.toThrow(/Only creator accounts can sign up/);
  });
});

describe('post confirmation trigger', () => {
  it("writes the profile, email, counters, the week's sign-up, the activity line and the queued welcome email in one transaction and adds the creator group", async () => {
    dynamo.on(TransactWriteCommand).resolves({});
    cognito.on(AdminAddUserToGroupCommand).resolves({});
    await postConfirmation(postEvent('PostConfirmation_ConfirmSignUp'));
    const tx = dynamo.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    expect(tx.map((i) => Object.keys(i)[0])).toEqual(['Put', 'Put', 'Update', 'Update', 'Put', 'Put']);
    expect(tx[0]!.Put!.Item).toMatchObject({ pk: 'USER#sub-1', id: 'sub-1', email: 'new@example.com', role: 'creator' });
    // The counters and the week are sharded (data/sharded-counters.ts): one shard each, the user's.
    expect(tx[2]!.Update!.Key).toMatchObject({ pk: expect.stringMatching(/^COUNTERS#\d+$/), sk: 'PLATFORM' });
    expect(tx[3]!.Update!.Key).toMatchObject({ pk: expect.stringMatching(/^COUNTERS#\d+$/), sk: expect.stringMatching(/^WEEK#\d{4}-\d{2}-\d{2}$/) });
    expect(tx[4]!.Put!.Item).toMatchObject({ pk: 'ACTIVITY', kind: 'sign-up', text: 'New creator: new@example.com' });
    expect(tx[5]!.Put!.Item).toMatchObject({ pk: 'OUTBOX', automation: 'welcome', userId: 'sub-1', email: 'new@example.com' });
    expect(cognito.commandCalls(AdminAddUserToGroupCommand)[0]!.args[0].input).toMatchObject({ Username: 'user-name-1', GroupName: 'creator' });
  });

  it('writes nothing when a password reset is confirmed', async () => {
    await postConfirmation(postEvent('PostConfirmation_ConfirmForgotPassword'));
    expect(dynamo.calls()).toHaveLength(0);
    expect(cognito.calls()).toHaveLength(0);
  });

  it('does not swallow a failure, so Cognito reports it', async () => {
    dynamo.on(GetCommand).resolves({});
    dynamo.on(TransactWriteCommand).rejects(new Error('throttled'));
    await expect(postConfirmation(postEvent('PostConfirmation_ConfirmSignUp'))).rejects.toThrow('throttled');
  });
});
