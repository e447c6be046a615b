import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { traced } from '#adapters/tracer.ts';
import { config, required } from '#functions/config.ts';
import type { Mailer } from '#core/ports.ts';

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
