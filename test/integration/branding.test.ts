import { randomBytes } from 'node:crypto';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { work as issuerWork } from '#functions/jobs/certificate-issuer.ts';
import { runToEnd } from '#test/functions/fakes/slice-queue.ts';
import { mailsTo, type StoredMail } from './mail-support.ts';
import { accountWithRole, api, eventually, givePlan, outputs, uniqueEmail, useLocalCloudEnv } from './support.ts';

/**
 * Branding (issue 32 point 1) through the gateway, DynamoDB Local and the files bucket: a Pro creator saves the school's
 * name, colour and logo (uploaded straight to the bucket), and their public pages carry it; Starter is refused.
 */
const slugOf = (tag: string) => `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

describe("a school's branding", () => {
  it('is saved with an uploaded logo, shown on the public creator and course pages, and gone from them on Starter', async () => {
    const creator = await accountWithRole('creator', 'brand-pro');
    expect((await api('GET', '/api/branding', { token: creator.token })).body).toBeNull();

    const png = randomBytes(4096);
    const upload = await api('POST', '/api/branding/logo/uploads', { token: creator.token, body: { contentType: 'image/png', size: png.byteLength } });
    expect(upload.status).toBe(200);
    expect((await fetch(upload.body.uploadUrl, { method: 'PUT', headers: upload.body.headers, body: png })).status).toBe(200);
    const saved = await api('PUT', '/api/branding', { token: creator.token, body: { schoolName: 'Clay & Kiln', primaryColor: '#FACC15', logoFileId: upload.body.fileId } });
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ schoolName: 'Clay & Kiln', primaryColor: '#facc15', onPrimaryColor: '#000000', logoUrl: expect.any(String) });
    const logo = await fetch(saved.body.logoUrl);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await logo.arrayBuffer()).equals(png)).toBe(true);

    const slug = slugOf('brand');
    expect((await api('PUT', '/api/creator/public-profile', { token: creator.token, body: { displayName: 'Ann', slug } })).status).toBe(200);
    const course = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Throwing pots' } })).body.id as string;
    expect((await api('PATCH', `/api/courses/${course}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
    const branding = { schoolName: 'Clay & Kiln', primaryColor: '#facc15', onPrimaryColor: '#000000', logoUrl: expect.stringContaining(`avatars/${creator.id}/logos/${upload.body.fileId}`) };
    expect((await api('GET', `/api/public/creators/${slug}`)).body.branding).toEqual(branding);
    expect((await api('GET', `/api/public/courses/${course}`)).body.branding).toEqual(branding);

    // A new learner's invitation comes from the school: its name as the sender's, its logo (a lasting link) on top.
    const learnerEmail = uniqueEmail('brand-learner');
    expect((await api('POST', `/api/courses/${course}/enrollments`, { token: creator.token, body: { email: learnerEmail } })).status).toBe(201);
    const [invitation] = await eventually(() => mailsTo(learnerEmail), (mails) => mails.length > 0);
    expect((invitation as StoredMail & { from?: string }).from).toMatch(/^"Clay & Kiln" <[^<>]+@[^<>]+>$/);
    const logoLink = /<img src="([^"]+)" alt="Clay &amp; Kiln"/.exec(invitation!.body.html ?? '')?.[1]?.replace(/&amp;/g, '&');
    expect(logoLink).toMatch(new RegExp(`/api/public/schools/${creator.id}/logo\\?v=${upload.body.fileId}$`));
    const viaApi = await fetch(`${outputs().ApiUrl}${new URL(logoLink!).pathname}${new URL(logoLink!).search}`, { redirect: 'manual' });
    expect(viaApi.status).toBe(302);
    expect(Buffer.from(await (await fetch(viaApi.headers.get('location')!)).arrayBuffer()).equals(png)).toBe(true);

    // The player of an enrolled learner wears the school.
    const learner = await accountWithRole('learner', 'brand-player');
    expect((await api('POST', `/api/courses/${course}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
    expect((await api('GET', `/api/learner/courses/${course}/outline`, { token: learner.token })).body.branding).toEqual(branding);
    expect((await api('GET', `/api/learner/courses/${course}`, { token: learner.token })).body.branding).toEqual(branding);

    // The learner completes a course of the school's: the certificate's email comes from the school, its credential names
    // the school as issuer with its logo (the lasting link), and its public page carries the branding.
    const quiz = { passPercent: 100, questions: [{ prompt: 'Centre first?', type: 'single', options: ['Yes', 'No'], correct: [0] }] };
    const graded = (await api('POST', '/api/courses', { token: creator.token, body: { title: 'Centring clay' } })).body.id as string;
    const lessonId = (await api('POST', `/api/courses/${graded}/lessons`, { token: creator.token, body: { title: 'Check', kind: 'quiz', quiz } })).body.id as string;
    expect((await api('PATCH', `/api/courses/${graded}`, { token: creator.token, body: { status: 'published' } })).status).toBe(200);
    expect((await api('POST', `/api/courses/${graded}/enrollments`, { token: creator.token, body: { email: learner.email } })).status).toBe(201);
    expect((await api('POST', `/api/learner/courses/${graded}/lessons/${lessonId}/attempts`, { token: learner.token, body: { answers: [[0]] } })).body.completedAt).not.toBeNull();
    const certificate = await eventually(
      async () => {
        useLocalCloudEnv();
        await runToEnd('certificate-issuer', issuerWork);
        return ((await api('GET', '/api/learner/certificates', { token: learner.token })).body.items as { id: string; courseId: string }[]).find((c) => c.courseId === graded);
      },
      (found) => found !== undefined,
    );
    const [certificateMail] = await eventually(
      async () => (await mailsTo(learner.email)).filter((m) => m.subject === 'Your certificate from Course Platform'),
      (mails) => mails.length > 0,
    );
    expect((certificateMail as StoredMail & { from?: string }).from).toMatch(/^"Clay & Kiln" <[^<>]+@[^<>]+>$/);
    expect(certificateMail!.body.text).toMatch(/^Clay & Kiln: congratulations, you completed the course "Centring clay"/);
    expect(certificateMail!.body.html).toContain(`<img src="${logoLink!.replace(/&/g, '&amp;')}" alt="Clay &amp; Kiln"`);
    const page = await api('GET', `/api/public/certificates/${certificate!.id}`);
    expect(page.body).toMatchObject({ verified: true, status: 'valid', certificate: { issuerName: 'Clay & Kiln' }, branding });
    expect(decodeJwt(page.body.credential as string)['issuer']).toMatchObject({ name: 'Clay & Kiln', image: { id: logoLink, type: 'Image' } });

    // Removing the logo takes it out of the bucket.
    const plain = await api('PUT', '/api/branding', { token: creator.token, body: { schoolName: 'Clay & Kiln', primaryColor: '#1d4ed8', logoFileId: null } });
    expect(plain.body).toMatchObject({ primaryColor: '#1d4ed8', onPrimaryColor: '#ffffff', logoUrl: null });
    expect((await fetch(saved.body.logoUrl)).status).toBe(404);

    // Moved down to Starter: the pages look as the platform's; what was saved is kept for a return to Pro.
    await givePlan(creator, 'starter');
    expect((await api('GET', `/api/public/courses/${course}`)).body.branding).toBeNull();
    expect((await api('GET', `/api/public/creators/${slug}`)).body.branding).toBeNull();
    expect((await api('GET', `/api/learner/courses/${course}/outline`, { token: learner.token })).body.branding).toBeNull();
    expect((await api('GET', '/api/branding', { token: creator.token })).body).toMatchObject({ schoolName: 'Clay & Kiln' });
    // The certificate's page too; the credential stays as it was signed, in the school's name.
    expect((await api('GET', `/api/public/certificates/${certificate!.id}`)).body).toMatchObject({ certificate: { issuerName: 'Clay & Kiln' }, branding: null });
  });

  it('is Pro: a Starter creator is refused a save and a logo upload with PLAN_REQUIRED', async () => {
    const starter = await accountWithRole('creator', 'brand-starter', { plan: 'starter' });
    for (const [method, path, body] of [
      ['PUT', '/api/branding', { schoolName: 'Other', primaryColor: '#000000' }],
      ['POST', '/api/branding/logo/uploads', { contentType: 'image/png', size: 100 }],
    ] as const) {
      const refused = await api(method, path, { token: starter.token, body });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toMatchObject({ code: 'PLAN_REQUIRED', message: 'This is part of the Pro plan. Upgrade to Pro to use it.' });
    }
  });

  it("refuses a colour that is not #rrggbb, a name too long, an SVG logo, and another creator's upload (400)", async () => {
    const [ann, bob] = await Promise.all([accountWithRole('creator', 'brand-ann'), accountWithRole('creator', 'brand-bob')]);
    for (const body of [{ schoolName: 'Ann', primaryColor: 'red' }, { schoolName: 'x'.repeat(61), primaryColor: '#112233' }, { schoolName: '', primaryColor: '#112233' }]) {
      const res = await api('PUT', '/api/branding', { token: ann.token, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await api('POST', '/api/branding/logo/uploads', { token: ann.token, body: { contentType: 'image/svg+xml', size: 100 } })).status).toBe(400);
    expect((await api('POST', '/api/branding/logo/uploads', { token: ann.token, body: { contentType: 'image/png', size: 2 * 1024 * 1024 + 1 } })).status).toBe(400);
    const upload = await api('POST', '/api/branding/logo/uploads', { token: ann.token, body: { contentType: 'image/png', size: 100 } });
    await fetch(upload.body.uploadUrl, { method: 'PUT', headers: upload.body.headers, body: new Uint8Array(100) });
    const stolen = await api('PUT', '/api/branding', { token: bob.token, body: { schoolName: 'Bob', primaryColor: '#112233', logoFileId: upload.body.fileId } });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error.message).toBe('The logo was not uploaded, or is not a PNG, JPEG or WebP image of up to 2 MB. Choose it again.');
  });
});
