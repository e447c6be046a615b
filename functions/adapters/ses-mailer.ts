import { GetAccountCommand, SendBulkEmailCommand, SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { awsClientOptions, clientPolicies, type ClientPolicy } from '#adapters/client-policy.ts';
import { traced } from '#adapters/tracer.ts';
import { MailRefusedError } from '#core/errors.ts';
import { config, required } from '#functions/config.ts';
import type { BulkMailer, Mailer } from '#core/ports.ts';

let client: SESv2Client | undefined;
let bulkClient: SESv2Client | undefined;

const sesWith = (policy: ClientPolicy): SESv2Client => {
  const { AWS_REGION, SES_ENDPOINT } = config();
  return traced(new SESv2Client({ region: AWS_REGION, ...awsClientOptions(policy), ...(SES_ENDPOINT ? { endpoint: SES_ENDPOINT } : {}) }));
};

/**
 * The SES client of single messages, made once, with its timeouts and retries (adapters/client-policy.ts). A send
 * retried after a timeout may deliver twice: a single message is at-least-once (decision 0023).
 */
export const sesClient = (): SESv2Client => (client ??= sesWith(clientPolicies.ses));

/** The SES client of campaign batches: one attempt per call (the campaign sender decides what to send again). */
export const sesBulkClient = (): SESv2Client => (bulkClient ??= sesWith(clientPolicies.sesBulk));

/** Node's errors for a connection that was never made: nothing reached SES. */
const NEVER_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SES answered with an error (a throttle, a server fault, a refusal) or could not be reached: nothing was sent, and
 * MailRefusedError says so. Any other failure (a timeout, a connection cut after the request went) is left as it is:
 * the batch may have gone.
 */
const refusedOrUnknown = (error: unknown): unknown => {
  const e = error as { $metadata?: { httpStatusCode?: number }; code?: string; name?: string };
  const answered = e.$metadata?.httpStatusCode !== undefined && e.name !== 'TimeoutError';
  return answered || (e.code !== undefined && NEVER_CONNECTED.has(e.code)) ? new MailRefusedError(`SES refused the batch: ${e.name ?? 'error'}`, { cause: error }) : error;
};

/**
 * The From header: MAIL_FROM, or its address with a display name when one is given (a branded creator's school). The
 * name is the creator's text: line breaks go, quotes and backslashes are escaped inside a quoted string, and a name
 * beyond ASCII is a MIME encoded-word (RFC 2047), as SES requires.
 */
export const fromAddress = (mailFrom: string, name: string | undefined): string => {
  const clean = name?.replace(/[\r\n\t]+/g, ' ').trim();
  if (!clean) return mailFrom;
  // MAIL_FROM may carry the platform's own display name ('Course Platform <no-reply@...>'): the school's replaces it.
  const address = /<([^<>]+)>\s*$/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  if (/^[\x20-\x7e]*$/.test(clean)) return `"${clean.replace(/(["\\])/g, '\\$1')}" <${address}>`;
  return `=?UTF-8?B?${Buffer.from(clean, 'utf8').toString('base64')}?= <${address}>`;
};

export const sesMailer = (): Mailer => ({
  async send({ to, subject, text, html, attachments, fromName, headers }) {
    const { SES_CONFIGURATION_SET } = config();
    await sesClient().send(
      new SendEmailCommand({
        FromEmailAddress: fromAddress(required('MAIL_FROM'), fromName),
        Destination: { ToAddresses: [to] },
        ...(SES_CONFIGURATION_SET ? { ConfigurationSetName: SES_CONFIGURATION_SET } : {}),
        Content: {
          Simple: {
            Subject: { Data: subject, Charset: 'UTF-8' },
            Body: { Text: { Data: text, Charset: 'UTF-8' }, Html: { Data: html, Charset: 'UTF-8' } },
            // A sequence email's List-Unsubscribe pair (RFC 8058, issue 33).
            ...(headers?.length ? { Headers: headers.map((h) => ({ Name: h.name, Value: h.value })) } : {}),
            // A calendar invitation's `.ics` (issue 30): SES builds the multipart/mixed message around it.
            ...(attachments?.length
              ? {
                  Attachments: attachments.map((a) => ({
                    FileName: a.filename,
                    ContentType: a.contentType,
                    ContentDisposition: 'ATTACHMENT' as const,
                    ContentTransferEncoding: 'BASE64' as const,
                    RawContent: new TextEncoder().encode(a.content),
                  })),
                }
              : {}),
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
 * The account's MaxSendRate, read once per process (a failed read is not kept): the bulk mailer's, and the pace of what
 * a function without it sends in numbers (the stream's receipts), without the bulk sender in its bundle.
 */
export const sesMaxSendRate = (): Promise<number> => {
  sendRate ??= sesClient()
    .send(new GetAccountCommand({}))
    .then((account) => account.SendQuota?.MaxSendRate ?? DEFAULT_SEND_RATE);
  sendRate.catch(() => (sendRate = undefined));
  return sendRate;
};

/**
 * SES v2 as the BulkMailer port: SendBulkEmail with the message as inline template content (one call, at most 50
 * destinations), each destination with its own headers and template data (its unsubscribe URL). The account's
 * MaxSendRate is read once per process (`maxSendRate`); `quota` reads the rate and the 24-hour quota afresh (the
 * campaign sender, once a run). Max24HourSend -1 is SES's "unlimited".
 */
export const sesBulkMailer = (): BulkMailer => ({
  async sendBulk({ subject, text, html, entries }) {
    const { SES_CONFIGURATION_SET } = config();
    const out = await sesBulkClient().send(
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
    ).catch((error: unknown) => Promise.reject(refusedOrUnknown(error)));
    const results = out.BulkEmailEntryResults ?? [];
    return entries.map((entry, i) => {
      const result = results[i];
      // The status first (ACCOUNT_THROTTLED, TRANSIENT_FAILURE: the sender sends those again), then SES's words.
      return result?.Status === 'SUCCESS' ? { to: entry.to, ok: true } : { to: entry.to, ok: false, error: [result?.Status, result?.Error].filter(Boolean).join(': ') || 'no result' };
    });
  },

  maxSendRate: sesMaxSendRate,

  async quota() {
    const { SendQuota } = await sesClient().send(new GetAccountCommand({}));
    return {
      maxSendRate: SendQuota?.MaxSendRate ?? DEFAULT_SEND_RATE,
      left24Hours: SendQuota?.Max24HourSend === undefined || SendQuota.Max24HourSend < 0 ? Number.POSITIVE_INFINITY : SendQuota.Max24HourSend - (SendQuota.SentLast24Hours ?? 0),
    };
  },
});
