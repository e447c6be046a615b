import type { CustomMessageTriggerEvent } from 'aws-lambda';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetConfig } from '#functions/config.ts';
import { handler } from '#functions/triggers/custom-message.ts';

const event = (source: string, email = 'creator@example.com') =>
  ({
    version: '1',
    region: 'eu-west-2',
    userPoolId: 'pool',
    userName: 'user-sub-1',
    triggerSource: source,
    callerContext: { awsSdkVersion: '3', clientId: 'client' },
    request: { userAttributes: { sub: 'user-sub-1', email }, codeParameter: '{####}', usernameParameter: null, linkParameter: '{##Click Here##}' },
    response: { smsMessage: null, emailMessage: null, emailSubject: null },
  }) as unknown as CustomMessageTriggerEvent;

/** The hrefs of the message's links, as a mail client reads them (HTML entities decoded). */
const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };
const hrefs = (html: string) =>
  [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replace(/&(amp|lt|gt|quot|#39);/g, (e) => entities[e]!));

beforeEach(() => {
  process.env['APP_ORIGIN'] = 'https://courses.example.com/';
  resetConfig();
});
afterEach(() => {
  delete process.env['APP_ORIGIN'];
  resetConfig();
});

describe('custom message trigger', () => {
  it('links the forgot-password email to /reset-password with the code placeholder and the email', async () => {
    const out = await handler(event('CustomMessage_ForgotPassword'));

    expect(out.response.emailSubject).toBe('Reset your Course Platform password');
    expect(hrefs(out.response.emailMessage!)).toEqual([
      'https://courses.example.com/reset-password?code={####}&email=creator%40example.com',
      'https://courses.example.com/reset-password?code={####}&email=creator%40example.com',
    ]);
  });

  it('keeps the literal {####} that Cognito requires and replaces with the code', async () => {
    const out = await handler(event('CustomMessage_ForgotPassword'));
    expect(out.response.emailMessage).toContain('{####}');
    expect(out.response.emailMessage).toContain('Your code is <strong');
  });

  it('escapes the email in the body and encodes it in the link, so an address cannot inject markup', async () => {
    const tricky = `o'brien+"x"<b>@example.com`;
    const out = await handler(event('CustomMessage_ForgotPassword', tricky));
    const html = out.response.emailMessage!;

    expect(html).not.toContain('<b>');
    expect(html).toContain('<strong>o&#39;brien+&quot;x&quot;&lt;b&gt;@example.com</strong>');
    // As Cognito delivers it: the code in place of {####} (a literal '#' would start the URL's fragment).
    const link = new URL(hrefs(html)[0]!.replace('{####}', '123456'));
    expect(link.searchParams.get('email')).toBe(tricky);
    expect(link.searchParams.get('code')).toBe('123456');
  });

  it('words the email verification code in the platform\'s frame, with the {####} Cognito fills and the address escaped', async () => {
    const out = await handler(event('CustomMessage_VerifyUserAttribute', 'a<b>@example.com'));
    expect(out.response.emailSubject).toBe('Verify your email for Course Platform');
    expect(out.response.emailMessage).toContain('<strong>{####}</strong>');
    expect(out.response.emailMessage).toContain('a&lt;b&gt;@example.com');
    expect(out.response.emailMessage).not.toContain('<b>');
  });

  it("leaves every other message to Cognito's defaults", async () => {
    for (const source of ['CustomMessage_SignUp', 'CustomMessage_AdminCreateUser', 'CustomMessage_ResendCode']) {
      const out = await handler(event(source));
      expect(out.response).toEqual({ smsMessage: null, emailMessage: null, emailSubject: null });
    }
  });
});
