import { createHash, createHmac, type BinaryLike } from 'node:crypto';
import { SignatureV4 } from '@smithy/signature-v4';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { config, required } from '#functions/config.ts';
import type { FileStore } from '#core/files/ports.ts';
import type { ImageStore } from '#core/ports.ts';
import type { SubmissionFileStore } from '#core/assignments/ports.ts';

/**
 * Presigned S3 URLs without the S3 client: the signing the SDK's presigner does (AWS Signature V4 from
 * `@smithy/signature-v4`, query-string form, `UNSIGNED-PAYLOAD`), on the URL the client would build (path-style on the
 * local emulator, virtual-hosted in the cloud, the same `x-id` and parameters). The routes that only hand out links
 * (a file's download, an upload part, a picture) then carry ~180 KB less than with @aws-sdk/client-s3
 * (decision 0010, bundle budgets). test/functions/adapters/s3-presigner.test.ts checks it gives exactly the URL
 * `getSignedUrl` gives.
 */

type Data = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: Data): BinaryLike =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);

/** SHA-256 (and its HMAC, given a secret) as the signer wants it, from node:crypto. */
export class Sha256 {
  private readonly hash;
  constructor(secret?: Data) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: Data): void {
    this.hash.update(bytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

/** RFC 3986 escaping, as S3 and the SDK's query builder use it. */
const escape = (value: string): string => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

let signer: SignatureV4 | undefined;
const s3Signer = (): SignatureV4 => {
  if (!signer) {
    const { AWS_REGION, FILES_ENDPOINT } = config();
    signer = new SignatureV4({
      service: 's3',
      region: AWS_REGION,
      // Locally the emulator's fixed key; in the cloud the function role's credentials (always in Lambda's environment).
      credentials: FILES_ENDPOINT ? { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } : fromEnv(),
      sha256: Sha256,
      uriEscapePath: false,
      applyChecksum: false,
    });
  }
  return signer;
};

export interface PresignInput {
  method: 'GET' | 'PUT';
  key: string;
  /** The operation (`x-id`, as the SDK names it) and its parameters. */
  operation: 'GetObject' | 'PutObject' | 'UploadPart';
  query?: Record<string, string>;
  /** Headers the request must carry as signed (content-type, content-length). */
  signedHeaders?: Record<string, string>;
  ttlSeconds: number;
  signingDate?: Date;
}

/** A presigned URL of the files bucket. */
export const presignS3 = async (input: PresignInput): Promise<string> => {
  const { AWS_REGION, FILES_ENDPOINT } = config();
  const bucket = required('FILES_BUCKET');
  const path = `/${input.key.split('/').map(escape).join('/')}`;
  const endpoint = FILES_ENDPOINT ? new URL(FILES_ENDPOINT) : new URL(`https://${bucket}.s3.${AWS_REGION}.amazonaws.com`);
  const hostname = endpoint.hostname;
  const port = endpoint.port ? Number(endpoint.port) : undefined;
  const request = {
    method: input.method,
    protocol: endpoint.protocol,
    hostname,
    ...(port === undefined ? {} : { port }),
    path: FILES_ENDPOINT ? `/${bucket}${path}` : path,
    query: { ...input.query, 'x-id': input.operation },
    headers: {
      ...input.signedHeaders,
      host: `${hostname}${port === undefined ? '' : `:${port}`}`,
      // Spelled as the SDK's presigner spells it: hoisted into the query as it is.
      'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD',
    },
  };
  const signed = await s3Signer().presign(request, {
    expiresIn: input.ttlSeconds,
    signableHeaders: new Set(Object.keys(input.signedHeaders ?? {})),
    ...(input.signingDate ? { signingDate: input.signingDate } : {}),
  });
  const params = signed.query ?? {};
  const query = Object.keys(params)
    .sort()
    .map((name) => `${escape(name)}=${escape(String(params[name]))}`)
    .join('&');
  return `${endpoint.protocol}//${request.headers.host}${signed.path}?${query}`;
};

/** Tests point the adapter at another configuration between runs. */
export const resetS3Signer = (): void => {
  signer = undefined;
};

/** The course files' links: an upload part of exactly its size, a download with its file name. */
export const s3FileLinks = (): Pick<FileStore, 'partUrl' | 'downloadUrl'> => ({
  // The part's size is a signed header: a PUT of any other size fails S3's signature check.
  partUrl: (key, uploadId, partNumber, contentLength, ttlSeconds) =>
    presignS3({ method: 'PUT', key, operation: 'UploadPart', query: { partNumber: String(partNumber), uploadId }, signedHeaders: { 'content-length': String(contentLength) }, ttlSeconds }),
  downloadUrl: (key, { disposition, ttlSeconds }) => presignS3({ method: 'GET', key, operation: 'GetObject', query: { 'response-content-disposition': disposition }, ttlSeconds }),
});

/** The creators' pictures' links: an upload of exactly the declared type and size, and a view the browser caches. */
export const s3ImageLinks = (): Pick<ImageStore, 'uploadUrl' | 'viewUrl'> => ({
  uploadUrl: (key, { contentType, contentLength, ttlSeconds }) =>
    presignS3({ method: 'PUT', key, operation: 'PutObject', signedHeaders: { 'content-type': contentType, 'content-length': String(contentLength) }, ttlSeconds }),
  // Signed as at the start of the caller's window: every read in that window gets the same URL, so the browser's
  // cache serves the picture instead of fetching it again on each page view.
  viewUrl: (key, { ttlSeconds, signedAt }) =>
    presignS3({ method: 'GET', key, operation: 'GetObject', query: { 'response-cache-control': 'private, max-age=600' }, ttlSeconds, signingDate: signedAt }),
});

/**
 * The learners' submission files' links: an upload of exactly the declared type and size, and a download that is only
 * ever a download (its disposition and a safe type set on the response, whatever the object was stored with).
 */
export const s3SubmissionFileLinks = (): Pick<SubmissionFileStore, 'uploadUrl' | 'downloadUrl'> => ({
  uploadUrl: (key, { contentType, contentLength, ttlSeconds }) =>
    presignS3({ method: 'PUT', key, operation: 'PutObject', signedHeaders: { 'content-type': contentType, 'content-length': String(contentLength) }, ttlSeconds }),
  downloadUrl: (key, { disposition, contentType, ttlSeconds }) =>
    presignS3({ method: 'GET', key, operation: 'GetObject', query: { 'response-content-disposition': disposition, 'response-content-type': contentType }, ttlSeconds }),
});
