import { GetObjectCommand, PutObjectCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { afterEach, describe, expect, it } from 'vitest';
import { presignS3, resetS3Signer } from '#adapters/s3-presigner.ts';
import { resetConfig } from '#functions/config.ts';

/** Our presigned URLs are exactly the SDK presigner's, on the local emulator (path-style) and in the cloud (virtual-hosted). */
const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
  resetConfig();
  resetS3Signer();
});

const signingDate = new Date('2026-11-25T10:00:00Z');
const lambdaCredentials = { accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'role-secret', sessionToken: 'role-session' };

const setUp = (where: 'local' | 'cloud') => {
  process.env['AWS_REGION'] = 'eu-west-2';
  process.env['FILES_BUCKET'] = 'course-files';
  if (where === 'local') process.env['FILES_ENDPOINT'] = 'http://127.0.0.1:4569';
  else {
    delete process.env['FILES_ENDPOINT'];
    process.env['AWS_ACCESS_KEY_ID'] = lambdaCredentials.accessKeyId;
    process.env['AWS_SECRET_ACCESS_KEY'] = lambdaCredentials.secretAccessKey;
    process.env['AWS_SESSION_TOKEN'] = lambdaCredentials.sessionToken;
  }
  resetConfig();
  resetS3Signer();
  return new S3Client({
    region: 'eu-west-2',
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(where === 'local'
      ? { endpoint: 'http://127.0.0.1:4569', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } }
      : { credentials: lambdaCredentials }),
  });
};

describe.each(['local', 'cloud'] as const)('presigned URLs (%s)', (where) => {
  it("a download with its Content-Disposition, as the SDK's GetObject URL", async () => {
    const sdk = setUp(where);
    const key = "courses/c1/files/01J/Week 1 + notes (final)'s.pdf";
    const disposition = 'attachment; filename="Week 1 notes.pdf"; filename*=UTF-8\'\'Week%201%20notes.pdf';
    const expected = await getSignedUrl(sdk, new GetObjectCommand({ Bucket: 'course-files', Key: key, ResponseContentDisposition: disposition }), { expiresIn: 300, signingDate });
    expect(await presignS3({ method: 'GET', key, operation: 'GetObject', query: { 'response-content-disposition': disposition }, ttlSeconds: 300, signingDate })).toBe(expected);
  });

  it('an upload part that must be exactly its size, as the SDK\'s UploadPart URL', async () => {
    const sdk = setUp(where);
    const expected = await getSignedUrl(sdk, new UploadPartCommand({ Bucket: 'course-files', Key: 'courses/c1/v.mp4', UploadId: 'a~b.c_d', PartNumber: 12, ContentLength: 8_388_608 }), {
      expiresIn: 3600,
      signingDate,
      signableHeaders: new Set(['content-length']),
    });
    const ours = await presignS3({ method: 'PUT', key: 'courses/c1/v.mp4', operation: 'UploadPart', query: { partNumber: '12', uploadId: 'a~b.c_d' }, signedHeaders: { 'content-length': '8388608' }, ttlSeconds: 3600, signingDate });
    expect(ours).toBe(expected);
  });

  it("a picture's upload with its type and size, and its cached view, as the SDK's URLs", async () => {
    const sdk = setUp(where);
    const upload = await getSignedUrl(sdk, new PutObjectCommand({ Bucket: 'course-files', Key: 'avatars/u1/p1', ContentType: 'image/png', ContentLength: 2048 }), {
      expiresIn: 600,
      signingDate,
      signableHeaders: new Set(['content-type', 'content-length']),
    });
    expect(await presignS3({ method: 'PUT', key: 'avatars/u1/p1', operation: 'PutObject', signedHeaders: { 'content-type': 'image/png', 'content-length': '2048' }, ttlSeconds: 600, signingDate })).toBe(upload);
    const view = await getSignedUrl(sdk, new GetObjectCommand({ Bucket: 'course-files', Key: 'avatars/u1/p1', ResponseCacheControl: 'private, max-age=600' }), { expiresIn: 3600, signingDate });
    expect(await presignS3({ method: 'GET', key: 'avatars/u1/p1', operation: 'GetObject', query: { 'response-cache-control': 'private, max-age=600' }, ttlSeconds: 3600, signingDate })).toBe(view);
  });
});
