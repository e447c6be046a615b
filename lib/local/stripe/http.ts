import type { IncomingMessage, ServerResponse } from 'node:http';
import { StripeApiError } from './errors.ts';

/** The stand-in's HTTP plumbing: bodies in, JSON and hosted pages (with their CSP) out. */

const maxBodyBytes = 1024 * 1024;

export const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        reject(new StripeApiError(413, 'Request body too large.'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

export const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
  const payload = JSON.stringify(body, null, 2);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(payload),
    'Cache-Control': 'no-cache, no-store',
    ...headers,
  });
  res.end(payload);
};

export const sendHtml = (res: ServerResponse, status: number, html: string): void => {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action *; base-uri 'none'; frame-ancestors 'none'",
  });
  res.end(html);
};

export const redirect = (res: ServerResponse, location: string): void => {
  res.writeHead(303, { Location: location, 'Content-Length': 0 });
  res.end();
};
