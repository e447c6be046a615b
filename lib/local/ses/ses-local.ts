import type { Server } from 'node:http';
import { closeServer } from '../http-server.ts';

type StartSes = (config: { host?: string; port?: number }) => Promise<Server>;

/**
 * What GetAccount answers locally (aws-ses-v2-local reads it from AWS_SES_ACCOUNT): a production account whose send
 * rate, 50 messages a second, paces the campaign sender as a real one would without slowing local campaigns down.
 */
export const localSesAccount = {
  DedicatedIpAutoWarmupEnabled: false,
  Details: {
    AdditionalContactEmailAddresses: [],
    ContactLanguage: 'EN',
    MailType: 'MARKETING',
    ReviewDetails: { CaseId: 'local', Status: 'GRANTED' },
    UseCaseDescription: 'Course Platform local cloud',
    WebsiteURL: 'http://127.0.0.1',
  },
  EnforcementStatus: 'HEALTHY',
  ProductionAccessEnabled: true,
  SendingEnabled: true,
  SendQuota: { Max24HourSend: 1_000_000, MaxSendRate: 50, SentLast24Hours: 0 },
  SuppressionAttributes: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
};

/**
 * aws-ses-v2-local in this process (it is a small express app): SES v2 SendEmail/SendBulkEmail, sent
 * mail kept in memory, a viewer at `/` and `GET /store` for tests.
 */
export const startSes = async (opts: { port: number }): Promise<{ url: string; stop(): Promise<void> }> => {
  process.env['AWS_SES_ACCOUNT'] ??= JSON.stringify(localSesAccount);
  const mod = (await import('aws-ses-v2-local')) as unknown as { default: StartSes | { default: StartSes } };
  const start = typeof mod.default === 'function' ? mod.default : mod.default.default;
  const server = await start({ host: '127.0.0.1', port: opts.port });
  return { url: `http://127.0.0.1:${opts.port}`, stop: () => closeServer(server) };
};
