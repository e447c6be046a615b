import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { forbiddenAddress, isLocalReceiver, webhookUrlProblem } from '#core/webhooks/address-guard.ts';
import type { WebhookAnswer, WebhookSender } from '#core/webhooks/ports.ts';

/** The longest a delivery waits for its answer, connection included. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** The most of an answer's body read (then the connection is dropped). */
export const WEBHOOK_ANSWER_BYTES = 4096;

type Resolve = (host: string) => Promise<{ address: string; family: number }[]>;
const systemResolve: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/**
 * Webhook POSTs, SSRF-proof (issue 31 point 5, decision 0053): the URL is checked again, its host resolved once (every
 * address) and refused when ANY address is forbidden (core/webhooks/address-guard.ts); the connection goes to the
 * checked address itself (no second lookup, so no DNS rebinding) with the URL's host as Host header and TLS server
 * name (the certificate is checked against it). Redirects are not followed (a 3xx is a failed attempt), the whole call
 * is bounded by 10 s and at most 4 KB of the answer is read. `allowLocalHttp` (the local cloud only) lets
 * `http://127.0.0.1:<port>` through.
 */
export const webhookHttp = (options: { allowLocalHttp: boolean; resolve?: Resolve; timeoutMs?: number }): WebhookSender => ({
  async send({ url: raw, headers, body }): Promise<WebhookAnswer> {
    const problem = webhookUrlProblem(raw, options.allowLocalHttp);
    if (problem) return { kind: 'refused', reason: problem };
    const url = new URL(raw);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const local = options.allowLocalHttp && isLocalReceiver(url);
    let addresses: { address: string; family: number }[];
    if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
    else {
      try {
        addresses = await (options.resolve ?? systemResolve)(host);
      } catch (error) {
        return { kind: 'unreachable', reason: `DNS: ${(error as Error).message}` };
      }
    }
    const bad = addresses.find((a) => !(local && a.address === '127.0.0.1') && forbiddenAddress(a.address));
    if (bad || addresses.length === 0) return { kind: 'refused', reason: bad ? `${host} resolves to ${bad.address}, which is not a public address.` : `${host} has no address.` };
    const target = addresses[0]!;
    const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
    return new Promise<WebhookAnswer>((resolve) => {
      let settled = false;
      const done = (answer: WebhookAnswer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.destroy();
        resolve(answer);
      };
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(
        {
          host: target.address,
          family: target.family,
          port: url.port || (url.protocol === 'https:' ? 443 : 80),
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: { ...headers, host: url.host, 'content-length': Buffer.byteLength(body).toString(), 'user-agent': 'CoursePlatform-Webhooks/1' },
          ...(url.protocol === 'https:' ? { servername: isIP(host) ? undefined : host } : {}),
        },
        (res: IncomingMessage) => {
          let read = 0;
          const status = res.statusCode ?? 0;
          res.on('data', (chunk: Buffer) => {
            read += chunk.length;
            if (read >= WEBHOOK_ANSWER_BYTES) done({ kind: 'answered', status });
          });
          res.on('end', () => done({ kind: 'answered', status }));
          res.on('error', () => done({ kind: 'answered', status }));
        },
      );
      const timer = setTimeout(() => done({ kind: 'unreachable', reason: `no answer within ${timeoutMs / 1000} s` }), timeoutMs);
      req.on('error', (error) => done({ kind: 'unreachable', reason: error.message }));
      req.end(body);
    });
  },
});
