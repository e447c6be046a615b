import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * The stand-ins' HTTP plumbing, written once: a request's body in; JSON, hosted pages and empty answers out.
 * What differs by provider (the exact Content-Type, indenting, headers on every answer) is the provider's own
 * wire habit and is passed in by its stand-in (`jsonReplies`), not written again.
 */

export interface BodyLimit {
  maxBytes: number;
  /** What the read rejects with once the body passes `maxBytes` (the request is then destroyed). */
  tooLarge: () => Error;
}

/** A request's whole body as text; with `limit`, a body larger than `limit.maxBytes` is refused. */
export const readBody = (req: IncomingMessage, limit?: BodyLimit): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (limit && size > limit.maxBytes) {
        reject(limit.tooLarge());
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

export interface JsonReplyStyle {
  /** The provider's own Content-Type; `application/json` unless given. */
  contentType?: string;
  /** Spaces to indent with (as the provider answers); compact unless given. */
  indent?: number;
  /** Headers on every answer, made afresh each time (e.g. a request id); a call's own headers win. */
  headers?: () => Record<string, string>;
}

export type SendJson = (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) => void;

/** A stand-in's `sendJson`, answering in its provider's style. */
export const jsonReplies =
  (style: JsonReplyStyle = {}): SendJson =>
  (res, status, body, headers = {}) => {
    const payload = JSON.stringify(body, null, style.indent);
    res.writeHead(status, {
      'Content-Type': style.contentType ?? 'application/json',
      'Content-Length': Buffer.byteLength(payload),
      ...style.headers?.(),
      ...headers,
    });
    res.end(payload);
  };

/** A hosted page (consent screens, viewers): never cached, no scripts, forms may post anywhere. */
export const sendHtml = (res: ServerResponse, status: number, html: string): void => {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(html),
    'Cache-Control': 'no-store',
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action *; base-uri 'none'; frame-ancestors 'none'",
  });
  res.end(html);
};

/** 204 and nothing else. */
export const noContent = (res: ServerResponse): void => {
  res.writeHead(204);
  res.end();
};

/** Text made safe for HTML, in content and in quoted attributes. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
