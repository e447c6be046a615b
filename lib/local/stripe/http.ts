import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonReplies, readBody as readAnyBody } from '../http-replies.ts';
import { StripeApiError } from './errors.ts';

/** The stand-in's HTTP plumbing (lib/local/http-replies.ts) in Stripe's manner: bodies up to 1 MiB, indented JSON. */

export { sendHtml } from '../http-replies.ts';

const maxBodyBytes = 1024 * 1024;

export const readBody = (req: IncomingMessage): Promise<string> =>
  readAnyBody(req, { maxBytes: maxBodyBytes, tooLarge: () => new StripeApiError(413, 'Request body too large.') });

export const sendJson = jsonReplies({ indent: 2, headers: () => ({ 'Cache-Control': 'no-cache, no-store' }) });

export const redirect = (res: ServerResponse, location: string): void => {
  res.writeHead(303, { Location: location, 'Content-Length': 0 });
  res.end();
};
