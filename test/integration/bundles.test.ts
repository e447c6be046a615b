import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_PART_BYTES } from '#contracts/files.ts';
import { eventHandlers, routes, type RouteDef } from '#functions/routes.ts';
import { bundleFunction } from '#lib/constructs/bundling.ts';
import { startGateway } from '#lib/local/gateway/http-api.ts';
import type { Handler } from '#lib/local/handlers.ts';
import { firstSignIn, mailTo } from './mail-support.ts';
import { accountWithRole, api, filesBucketHolds, outputs, uniqueEmail, useLocalCloudEnv } from './support.ts';

/**
 * The bundles that ship, against the local cloud. A gateway of its own serves these routes from their bundles, built
 * by lib/constructs/bundling.ts as CDK deploys them: the AWS SDK clients as the bundles carry them (the schemas of
 * operations no function calls shaken out, no event streams, zod without JSON Schema, the environment's credentials)
 * talk to s3rver, cognito-local, SES local and DynamoDB Local. Everything else goes through the cloud's own gateway.
 */
const served = ['start-upload', 'upload-part-urls', 'uploaded-parts', 'complete-upload', 'delete-file', 'enroll-learner', 'v1-list-courses', 'v1-openapi'];
const outDir = mkdtempSync(join(tmpdir(), 'shipped-bundles-'));
let gateway: Awaited<ReturnType<typeof startGateway>>;
let creator: Awaited<ReturnType<typeof accountWithRole>>;

const bundled = (method: string, path: string, init: { body?: unknown } = {}) => api(method, path, { ...init, token: creator.token, apiUrl: gateway.url });

beforeAll(async () => {
  useLocalCloudEnv();
  const chosen = routes.filter((r) => served.includes(r.name));
  const files = new Map<RouteDef, string>();
  await Promise.all(
    chosen.map(async (route) => {
      const outfile = join(outDir, route.name, 'index.mjs');
      await bundleFunction({ name: route.name, handler: route.handler, outfile, routeModulesDir: join(outDir, route.name) });
      files.set(route, outfile);
    }),
  );
  // The public API's key authorizer, as API Gateway runs it in front of the /v1 routes.
  const authorizerFile = join(outDir, eventHandlers.apiKeyAuthorizer.name, 'index.mjs');
  await bundleFunction({ ...eventHandlers.apiKeyAuthorizer, outfile: authorizerFile, routeModulesDir: join(outDir, eventHandlers.apiKeyAuthorizer.name) });
  gateway = await startGateway({
    port: 0,
    cognitoEndpoint: outputs().CognitoEndpoint,
    userPoolId: outputs().UserPoolId,
    clientId: outputs().UserPoolClientId,
    routes: chosen,
    throttle: false,
    handlerOf: async (route) => ((await import(pathToFileURL(files.get(route)!).href)) as { handler: Handler }).handler,
    authorizerOf: async () => ((await import(pathToFileURL(authorizerFile).href)) as { handler: Handler }).handler,
    log: () => {},
  });
  creator = await accountWithRole('creator', 'bundles');
}, 120_000);

afterAll(async () => {
  await gateway?.stop();
  rmSync(outDir, { recursive: true, force: true });
});

describe('the shipped bundles against the local cloud', () => {
  it('upload a lesson file in two parts, list the parts, complete it and delete it (S3 and DynamoDB)', async () => {
    const course = await api('POST', '/api/courses', { token: creator.token, body: { title: 'Bundled' } });
    const courseId = course.body.id as string;
    const lesson = await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Watch', kind: 'video' } });
    const lessonId = lesson.body.id as string;
    const bytes = randomBytes(UPLOAD_PART_BYTES + 1000);

    const started = await bundled('POST', `/api/courses/${courseId}/lessons/${lessonId}/files`, {
      body: { kind: 'video', name: 'clip.mp4', contentType: 'video/mp4', size: bytes.length },
    });
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({ partCount: 2, file: { status: 'uploading' } });
    const fileId = started.body.file.id as string;

    const urls = await bundled('POST', `/api/courses/${courseId}/files/${fileId}/parts`, { body: { partNumbers: [1, 2] } });
    expect(urls.status).toBe(200);
    const parts: { partNumber: number; etag: string }[] = [];
    for (const part of urls.body.parts as { partNumber: number; url: string; size: number }[]) {
      const start = (part.partNumber - 1) * UPLOAD_PART_BYTES;
      const res = await fetch(part.url, { method: 'PUT', body: bytes.subarray(start, start + part.size) });
      expect(res.status).toBe(200);
      parts.push({ partNumber: part.partNumber, etag: res.headers.get('etag')! });
    }
    const held = await bundled('GET', `/api/courses/${courseId}/files/${fileId}/parts`);
    expect(held.status).toBe(200);
    expect(held.body.parts.map((p: { partNumber: number; etag: string }) => [p.partNumber, p.etag])).toEqual(parts.map((p) => [p.partNumber, p.etag]));

    const completed = await bundled('POST', `/api/courses/${courseId}/files/${fileId}/complete`, { body: { parts } });
    expect(completed).toMatchObject({ status: 200, body: { id: fileId, status: 'ready', size: bytes.length } });
    const key = `courses/${courseId}/${lessonId}/${fileId}`;
    expect(await filesBucketHolds(key)).toBe(true);

    expect((await bundled('DELETE', `/api/courses/${courseId}/files/${fileId}`)).status).toBe(204);
    expect(await filesBucketHolds(key)).toBe(false);
    expect((await bundled('GET', `/api/courses/${courseId}/files/${fileId}/parts`)).status).toBe(404);
  });

  it('invite a learner by email: the Cognito account and the SES invitation, as from source', async () => {
    const course = await api('POST', '/api/courses', { token: creator.token, body: { title: 'Bundled invitations' } });
    const courseId = course.body.id as string;
    await api('POST', `/api/courses/${courseId}/lessons`, { token: creator.token, body: { title: 'Read', kind: 'text', body: '<p>Hi</p>' } });
    expect((await api('PATCH', `/api/courses/${courseId}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
    const email = uniqueEmail('bundled-invite');

    const invited = await bundled('POST', `/api/courses/${courseId}/enrollments`, { body: { email } });
    expect(invited).toMatchObject({ status: 201, body: { email, invited: true } });
    const mail = await mailTo(email);
    expect(mail?.subject).toBe("You're invited to a course on Course Platform");
    const temporary = /Temporary password: (\S+)/.exec(mail!.body.text!)?.[1];
    const token = await firstSignIn(email, temporary!, 'MyOwnPassw0rd');
    const mine = await api('GET', '/api/learner/courses', { token });
    expect(mine.body.items).toEqual([expect.objectContaining({ courseId })]);

    // An error the service answers (the address is enrolled already) comes back through the bundle as from source.
    const again = await bundled('POST', `/api/courses/${courseId}/enrollments`, { body: { email } });
    const fromSource = await api('POST', `/api/courses/${courseId}/enrollments`, { token: creator.token, body: { email } });
    expect(again).toEqual(fromSource);
  });

  it("answer the public API with an API key through the key authorizer's bundle, and generate the OpenAPI document (zod's JSON Schema kept in that bundle alone)", async () => {
    const key = (await api('POST', '/api/api-keys', { token: creator.token, body: { name: 'Bundled', scopes: ['courses:read'] } })).body.key as string;
    const listed = await api('GET', '/v1/courses', { token: key, apiUrl: gateway.url });
    expect(listed).toEqual(await api('GET', '/v1/courses', { token: key }));
    expect(listed.status).toBe(200);
    expect((await api('GET', '/v1/courses', { token: 'cp_not-a-key', apiUrl: gateway.url })).status).toBe(401);
    const document = await api('GET', '/v1/openapi.json', { apiUrl: gateway.url });
    expect(document.status).toBe(200);
    expect(document.body).toEqual((await api('GET', '/v1/openapi.json')).body);
  });
});
