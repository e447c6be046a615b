import {
  AdminGetUserCommand,
  GetUserAttributeVerificationCodeCommand,
  VerifyUserAttributeCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { EMAIL_NOT_VERIFIED_MESSAGE, TRIAL_DAILY_SENDS } from '#core/mail/on-behalf.ts';
import { sendQuotaKeys } from '#data/send-quota.ts';
import { LOCAL_CONFIRMATION_CODE } from '#lib/local/cognito/shim.ts';
import { deliver, linkCustomer, subscriptionEvent } from './billing-support.ts';
import { mailsTo } from './mail-support.ts';
import { accountWithRole, api, cognito, dynamo, givePlan, outputs, signIn, signUp, uniqueEmail } from './support.ts';

/**
 * Mail on a user's behalf (issue 27 point 4) on the local cloud: a self-signed-up creator is refused 403
 * EMAIL_NOT_VERIFIED until they verify through Cognito's own attribute verification (the shim's
 * GetUserAttributeVerificationCode mails the code to SES local; VerifyUserAttribute takes it back), then the same
 * invitation works; a trial creator's daily cap is a conditional counter per creator and day.
 */
const emailVerified = async (email: string) =>
  (await cognito().send(new AdminGetUserCommand({ UserPoolId: outputs().UserPoolId, Username: email }))).UserAttributes?.find((a) => a.Name === 'email_verified')?.Value;

const courseOf = async (token: string, title: string) => {
  const id = (await api('POST', '/api/courses', { token, body: { title } })).body.id as string;
  await api('POST', `/api/courses/${id}/lessons`, { token, body: { title: 'One', kind: 'text', body: '<p>One.</p>' } });
  return id;
};

/** A creator who signed up themselves, on a paid plan (issue 29: building courses needs one), as Stripe's webhook leaves it. */
const subscribed = async (token: string, email: string) => {
  const me = (await api('GET', '/api/me', { token })).body as { id: string };
  await givePlan({ id: me.id, email }, 'pro');
};

describe('mail on behalf of a creator', () => {
  it('refuses an unverified creator (403, no account made, no mail), mails the code on request, and works once the code is back', async () => {
    const email = uniqueEmail('unverified-creator');
    const password = 'Str0ngPassword';
    await signUp(email, password);
    const token = await signIn(email, password);
    await subscribed(token, email);
    expect(await emailVerified(email)).not.toBe('true');
    const courseId = await courseOf(token, 'Bread at home');

    const learner = uniqueEmail('invitee').toLowerCase();
    const refused = await api('POST', `/api/courses/${courseId}/enrollments`, { token, body: { email: learner } });
    expect(refused).toEqual({ status: 403, body: { error: { code: 'EMAIL_NOT_VERIFIED', message: EMAIL_NOT_VERIFIED_MESSAGE } } });
    await expect(cognito().send(new AdminGetUserCommand({ UserPoolId: outputs().UserPoolId, Username: learner }))).rejects.toMatchObject({ name: 'UserNotFoundException' });
    expect(await mailsTo(learner)).toEqual([]);

    // Cognito's own attribute verification, with the access token, through the official SDK.
    const sent = await cognito().send(new GetUserAttributeVerificationCodeCommand({ AccessToken: token, AttributeName: 'email' }));
    expect(sent.CodeDeliveryDetails).toMatchObject({ AttributeName: 'email', DeliveryMedium: 'EMAIL' });
    const [codeMail] = await mailsTo(email.toLowerCase());
    expect(codeMail?.subject).toBe('Verify your email for Course Platform');
    const code = /<strong>(\d{6})<\/strong>/.exec(codeMail?.body.html ?? '')?.[1];
    expect(code).toBe(LOCAL_CONFIRMATION_CODE);
    await expect(cognito().send(new VerifyUserAttributeCommand({ AccessToken: token, AttributeName: 'email', Code: '000000' }))).rejects.toMatchObject({ name: 'CodeMismatchException' });
    await cognito().send(new VerifyUserAttributeCommand({ AccessToken: token, AttributeName: 'email', Code: code! }));
    expect(await emailVerified(email)).toBe('true');

    const invited = await api('POST', `/api/courses/${courseId}/enrollments`, { token, body: { email: learner } });
    expect(invited).toMatchObject({ status: 201, body: { email: learner, invited: true } });
    expect(await mailsTo(learner)).toHaveLength(1);
  });

  it('lets a creator enrol a learner who already has an account (no mail) before verifying', async () => {
    const email = uniqueEmail('unverified-enrols');
    await signUp(email, 'Str0ngPassword');
    const token = await signIn(email, 'Str0ngPassword');
    await subscribed(token, email);
    const courseId = await courseOf(token, 'Knots');
    const learner = await accountWithRole('learner', 'existing-learner');
    expect(await api('POST', `/api/courses/${courseId}/enrollments`, { token, body: { email: learner.email } })).toMatchObject({ status: 201, body: { invited: false } });
    expect(await mailsTo(learner.email)).toEqual([]);
  });

  it(`caps a trial creator at ${TRIAL_DAILY_SENDS} invitations and recommendations a day: 429 RATE_LIMITED past it, nothing sent`, async () => {
    const creator = await accountWithRole('creator', 'trial-cap', { plan: 'none' });
    const customer = await linkCustomer(creator.id);
    const trial = subscriptionEvent({
      type: 'customer.subscription.created',
      created: Math.floor(Date.now() / 1000),
      customer,
      subscription: `sub_${creator.id}`,
      status: 'trialing',
      trialEnd: new Date(Date.now() + 14 * 86_400_000).toISOString(),
    });
    expect((await deliver(trial)).status).toBe(200);
    const courseId = await courseOf(creator.token, 'Trial course');
    // Today's count at one below the cap, as if the creator had sent that many already.
    const day = new Date().toISOString().slice(0, 10);
    await dynamo().send(new PutCommand({ TableName: outputs().TableName, Item: { ...sendQuotaKeys.day(creator.id, day), type: 'SendQuota', sent: TRIAL_DAILY_SENDS - 1 } }));

    const last = uniqueEmail('last-of-the-day').toLowerCase();
    expect((await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: last } })).status).toBe(201);
    const over = uniqueEmail('one-too-many').toLowerCase();
    const refused = await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email: over } });
    expect(refused).toMatchObject({ status: 429, body: { error: { code: 'RATE_LIMITED', message: expect.stringContaining(`${TRIAL_DAILY_SENDS} invitations and recommendations a day`) } } });
    expect(await mailsTo(over)).toEqual([]);
    const learnerId = (await api('GET', `/api/courses/${courseId}/enrollments`, { token: creator.token })).body.items[0].learnerId as string;
    const recommendation = await api('POST', `/api/crm/learners/${learnerId}/recommendations`, { token: creator.token, body: { recommendation: 'Keep going!' } });
    expect(recommendation).toMatchObject({ status: 429, body: { error: { code: 'RATE_LIMITED' } } });
    expect(await mailsTo(last)).toHaveLength(1);

    // A creator who pays is not capped.
    const paying = await accountWithRole('creator', 'not-on-trial');
    const payingCourse = await courseOf(paying.token, 'Paid course');
    await dynamo().send(new PutCommand({ TableName: outputs().TableName, Item: { ...sendQuotaKeys.day(paying.id, day), type: 'SendQuota', sent: TRIAL_DAILY_SENDS } }));
    expect((await api('POST', `/api/courses/${payingCourse}/enrollments`, { token: paying.token, body: { email: uniqueEmail('uncapped') } })).status).toBe(201);
  });
});
