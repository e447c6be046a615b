import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { closeServer, listen } from '../http-server.ts';

/**
 * The files bucket, locally: s3rver (an S3 emulator in this process, objects on disk under the data dir) with the one
 * bucket the functions use, created at every start with its CORS rules. The cloud's bucket (lib/constructs/
 * course-files.ts) admits only the app's origin; here any origin may PUT, GET and HEAD, because the dev server, the
 * Playwright browser and the tests each come from their own port. ETag is exposed as in the cloud: the browser reads
 * each part's ETag from the PUT's answer to complete a multipart upload.
 *
 * s3rver checks the access key (S3RVER) but not signatures, nor the size or type a presigned request fixes: the
 * server checks both again with HeadObject when an upload is completed (TOOLCHAIN.md, "Files: S3 locally").
 */
export const FILES_BUCKET = 'course-files';
/** The only credentials s3rver accepts; the adapter uses them only when FILES_ENDPOINT is set (locally). */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** CORS for every local origin: what a browser needs to upload parts and read them back. */
export const localCorsXml = `<CORSConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3000</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

interface S3rverInstance {
  configureBuckets(): Promise<unknown>;
  callback(): RequestListener;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

export interface S3EmulatorOptions {
  port: number;
  /** Where the buckets and objects live (kept between starts, like DynamoDB's data). */
  dir: string;
  log?: (line: string) => void;
}

export interface S3Emulator {
  /** e.g. http://127.0.0.1:4569: FILES_ENDPOINT, and `FilesEndpoint` in outputs.json. */
  url: string;
  bucket: string;
  stop(): Promise<void>;
}

export const startS3Emulator = async (opts: S3EmulatorOptions): Promise<S3Emulator> => {
  // s3rver is CommonJS without types; it pulls koa and winston, so it is loaded only when the local cloud starts.
  const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;
  const s3rver = new S3rver({
    directory: opts.dir,
    silent: true,
    // Path-style only (forcePathStyle in the adapter): no <bucket>.localhost names to resolve.
    vhostBuckets: false,
    configureBuckets: [{ name: FILES_BUCKET, configs: [localCorsXml] }],
  });
  await s3rver.configureBuckets();
  // Our own server rather than s3rver.run(): a taken port is then the same clear error as every other piece's.
  const s3 = s3rver.callback();
  const server = createServer((req, res) => {
    void multipartGaps(opts.dir, req, res).then((answered) => {
      if (!answered) s3(req, res);
    });
  });
  await listen(server, opts.port, 'S3_PORT');
  const { port } = server.address() as AddressInfo;
  opts.log?.(`[s3] bucket ${FILES_BUCKET} on http://127.0.0.1:${port}`);
  return { url: `http://127.0.0.1:${port}`, bucket: FILES_BUCKET, stop: () => closeServer(server) };
};

const xml = (res: ServerResponse, status: number, body: string): void => {
  res.writeHead(status, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
};

const noSuchUpload = (res: ServerResponse, uploadId: string): void =>
  xml(res, 404, `<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${uploadId}</UploadId></Error>`);

/**
 * The two multipart calls s3rver 3.7.1 lacks (it answers 405): ListParts (GET /<bucket>/<key>?uploadId=, how an
 * interrupted upload resumes) and AbortMultipartUpload (DELETE /<bucket>/<key>?uploadId=, when an unfinished file is
 * deleted). Both are answered from the upload's folder on disk, where s3rver keeps each part and its md5 (the part's
 * ETag): `<dir>/<bucket>/._S3rver_uploads/<uploadId>/<partNumber>[.md5]`, with the upload's key in `key`.
 * UploadPart (PUT ?partNumber=&uploadId=) and CompleteMultipartUpload (POST ?uploadId=) of an upload that is not
 * there (completed or aborted) answer S3's 404 NoSuchUpload here: s3rver would store the part in a folder of its own
 * making, and answer a completion with a 500. A personal data export completed by a delivery killed before it made
 * the export ready is completed again and relies on that answer (decision 0062).
 * Resolves false for every other request, which s3rver then answers.
 */
const multipartGaps = async (dir: string, req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
  const url = new URL(req.url ?? '/', 'http://s3.local');
  const uploadId = url.searchParams.get('uploadId');
  if (!uploadId) return false;
  const part = req.method === 'PUT' && url.searchParams.has('partNumber');
  const completion = req.method === 'POST';
  if (!part && !completion && ((req.method !== 'GET' && req.method !== 'DELETE') || url.searchParams.has('partNumber'))) return false;
  const [bucket = '', ...keyParts] = url.pathname.slice(1).split('/');
  const key = decodeURIComponent(keyParts.join('/'));
  const uploadDir = join(dir, bucket, '._S3rver_uploads', uploadId.replace(/[^\w.-]/g, ''));
  const storedKey = await readFile(join(uploadDir, 'key'), 'utf8').catch(() => undefined);
  if (storedKey !== key) {
    // The request's body is not read: drained, so the connection can be used again.
    req.resume();
    noSuchUpload(res, uploadId);
    return true;
  }
  if (part || completion) return false;
  if (req.method === 'DELETE') {
    await rm(uploadDir, { recursive: true, force: true });
    res.writeHead(204).end();
    return true;
  }
  const numbers = (await readdir(uploadDir)).filter((name) => /^\d+$/.test(name)).map(Number).sort((a, b) => a - b);
  const parts = await Promise.all(
    numbers.map(async (n) => {
      const [md5, info] = await Promise.all([readFile(join(uploadDir, `${n}.md5`), 'utf8').catch(() => undefined), stat(join(uploadDir, String(n)))]);
      return md5 ? `<Part><PartNumber>${n}</PartNumber><ETag>"${md5}"</ETag><Size>${info.size}</Size></Part>` : '';
    }),
  );
  xml(
    res,
    200,
    `<ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${uploadId}</UploadId><IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`,
  );
  return true;
};
