import { GetAccountCommand, SendBulkEmailCommand, SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { traced } from '#adapters/tracer.ts';
import { config, required } from '#functions/config.ts';
import type { BulkMailer, Mailer } from '#core/ports.ts';

let client: SESv2Client | undefined;

const ses = (): SESv2Client => {
  if (!client) {
    const { AWS_REGION, SES_ENDPOINT } = config();
    client = traced(new SESv2Client({ region: AWS_REGION, ...(SES_ENDPOINT ? { endpoint: SES_ENDPOINT } : {}) }));
  }
  return client;
};

/**
 * SES v2 as the Mailer port: one SendEmail per message, plain text and HTML, from MAIL_FROM. In the cloud the 'mail'
 * capability sets SES_CONFIGURATION_SET (bounces, complaints and delivery events) and every message goes through
 * it; the local SES stand-in has no configuration sets, so locally none is set and none is named.
 */
export const sesMailer = (): Mailer => ({
  async send({ to, subject, text, html }) {
    const { SES_CONFIGURATION_SET } = config();
    await ses().send(
      new SendEmailCommand({
        FromEmailAddress: required('MAIL_FROM'),
        Destination: { ToAddresses: [to] },
        ...(SES_CONFIGURATION_SET ? { ConfigurationSetName: SES_CONFIGURATION_SET } : {}),
        Content: {
          Simple: {
            Subject: { Data: subject, Charset: 'UTF-8' },
            Body: { Text: { Data: text, Charset: 'UTF-8' }, Html: { Data: html, Charset: 'UTF-8' } },
          },
        },
      }),
    );
  },
});

/** SES's own pace when it does not say (its sandbox rate). */
const DEFAULT_SEND_RATE = 1;
let sendRate: Promise<number> | undefined;

/**
 * SES v2 as the BulkMailer port: SendBulkEmail with the message as inline template content (one call, at most 50
 * destinations), each destination with its own headers and template data (its unsubscribe URL). The account's
 * MaxSendRate is read once per process.
 */
export const sesBulkMailer = (): BulkMailer => ({
  async sendBulk({ subject, text, html, entries }) {
    const { SES_CONFIGURATION_SET } = config();
    const out = await ses().send(
      new SendBulkEmailCommand({
        FromEmailAddress: required('MAIL_FROM'),
        ...(SES_CONFIGURATION_SET ? { ConfigurationSetName: SES_CONFIGURATION_SET } : {}),
        DefaultContent: { Template: { TemplateContent: { Subject: subject, Text: text, Html: html }, TemplateData: '{}' } },
        BulkEmailEntries: entries.map((entry) => ({
          Destination: { ToAddresses: [entry.to] },
          ReplacementHeaders: entry.headers.map(({ name, value }) => ({ Name: name, Value: value })),
          ReplacementEmailContent: { ReplacementTemplate: { ReplacementTemplateData: JSON.stringify(entry.data) } },
        })),
      }),
    );
    const results = out.BulkEmailEntryResults ?? [];
    return entries.map((entry, i) => {
      const result = results[i];
      return result?.Status === 'SUCCESS' ? { to: entry.to, ok: true } : { to: entry.to, ok: false, error: result?.Error ?? result?.Status ?? 'no result' };
    });
  },

  maxSendRate() {
    sendRate ??= ses()
      .send(new GetAccountCommand({}))
      .then((account) => account.SendQuota?.MaxSendRate ?? DEFAULT_SEND_RATE);
    sendRate.catch(() => (sendRate = undefined));
    return sendRate;
  },
});
