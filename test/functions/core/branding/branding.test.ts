import { describe, expect, it } from 'vitest';
import { brandingBody, contrastRatio, MIN_TEXT_CONTRAST, onPrimaryColor } from '#contracts/branding.ts';
import { getBranding, LOGO_NOT_UPLOADED, logoKey, mailSchoolOf, saveBranding, schoolLogoLocation, startLogoUpload } from '#core/branding/branding.ts';
import { NotFoundError, ValidationError } from '#core/errors.ts';
import { onBehalfFakes, planSubscriptions } from '#test/functions/fakes/on-behalf.ts';
import { memoryBranding } from '#test/functions/fakes/branding.ts';
import { sequentialIds, testClock } from '#test/functions/fakes/clock.ts';
import { memoryImageStore } from '#test/functions/fakes/public-profiles.ts';

const deps = () => ({ branding: memoryBranding(), images: memoryImageStore(), clock: testClock('2026-11-28T10:00:00.000Z'), ids: sequentialIds('logo') });
const ULID_A = '01KBRANDLOGO0000000000000A';
const ULID_B = '01KBRANDLOGO0000000000000B';

describe('the text colour on a primary colour', () => {
  it('is black or white, whichever reaches 4.5:1, for any colour', () => {
    expect(onPrimaryColor('#18181b')).toBe('#ffffff');
    expect(onPrimaryColor('#1d4ed8')).toBe('#ffffff');
    expect(onPrimaryColor('#facc15')).toBe('#000000');
    expect(onPrimaryColor('#ffffff')).toBe('#000000');
    // Mid greys are where it is closest: the chosen one still reaches 4.5:1.
    for (let v = 0; v < 256; v += 5) {
      const hex = `#${v.toString(16).padStart(2, '0').repeat(3)}`;
      expect(contrastRatio(hex, onPrimaryColor(hex)), hex).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
    }
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
  });

  it('the body takes #rrggbb colours only, the name 1 to 60 characters', () => {
    expect(brandingBody.parse({ schoolName: ' Clay School ', primaryColor: '#1D4ED8' })).toEqual({ schoolName: 'Clay School', primaryColor: '#1d4ed8' });
    expect(brandingBody.safeParse({ schoolName: 'Clay', primaryColor: 'blue' }).success).toBe(false);
    expect(brandingBody.safeParse({ schoolName: 'Clay', primaryColor: '#abc' }).success).toBe(false);
    expect(brandingBody.safeParse({ schoolName: '', primaryColor: '#1d4ed8' }).success).toBe(false);
    expect(brandingBody.safeParse({ schoolName: 'x'.repeat(61), primaryColor: '#1d4ed8' }).success).toBe(false);
  });
});

describe('a creator branding their school', () => {
  it('has none before the first save, then saves a name, a colour and an uploaded logo, shown by a signed link', async () => {
    const d = deps();
    expect(await getBranding(d, 'c1')).toBeNull();
    const upload = await startLogoUpload(d, { creatorId: 'c1', body: { contentType: 'image/png', size: 2048 } });
    expect(upload.uploadUrl).toContain(`avatars/c1/logos/${upload.fileId}`);
    expect(upload.uploadUrl).toContain('length=2048');
    d.images.put(logoKey('c1', upload.fileId), 2048, 'image/png');
    const saved = await saveBranding(d, { creatorId: 'c1', body: { schoolName: 'Clay School', primaryColor: '#1d4ed8', logoFileId: upload.fileId } });
    expect(saved).toEqual({ schoolName: 'Clay School', primaryColor: '#1d4ed8', onPrimaryColor: '#ffffff', logoUrl: expect.stringContaining(`avatars/c1/logos/${upload.fileId}?signed=`) });
    expect(await getBranding(d, 'c1')).toEqual(saved);
  });

  it('refuses a logo that was not uploaded, or not as allowed, and keeps the old one when the logo is not named', async () => {
    const d = deps();
    await expect(saveBranding(d, { creatorId: 'c1', body: { schoolName: 'Clay', primaryColor: '#1d4ed8', logoFileId: ULID_A } })).rejects.toThrow(LOGO_NOT_UPLOADED);
    d.images.put(logoKey('c1', ULID_A), 3 * 1024 * 1024, 'image/png');
    await expect(saveBranding(d, { creatorId: 'c1', body: { schoolName: 'Clay', primaryColor: '#1d4ed8', logoFileId: ULID_A } })).rejects.toBeInstanceOf(ValidationError);
    d.images.put(logoKey('c1', ULID_A), 1000, 'image/svg+xml');
    await expect(saveBranding(d, { creatorId: 'c1', body: { schoolName: 'Clay', primaryColor: '#1d4ed8', logoFileId: ULID_A } })).rejects.toBeInstanceOf(ValidationError);
    // Another creator's upload is not theirs to use.
    d.images.put(logoKey('c2', ULID_B), 1000, 'image/png');
    await expect(saveBranding(d, { creatorId: 'c1', body: { schoolName: 'Clay', primaryColor: '#1d4ed8', logoFileId: ULID_B } })).rejects.toBeInstanceOf(ValidationError);
    expect(d.branding.stored.size).toBe(0);

    d.images.put(logoKey('c1', ULID_A), 1000, 'image/webp');
    await saveBranding(d, { creatorId: 'c1', body: { schoolName: 'Clay', primaryColor: '#1d4ed8', logoFileId: ULID_A } });
    const renamed = await saveBranding(d, { creatorId: 'c1', body: { schoolName: 'Clay & Co', primaryColor: '#facc15' } });
    expect(renamed).toMatchObject({ schoolName: 'Clay & Co', onPrimaryColor: '#000000', logoUrl: expect.stringContaining(ULID_A) });
  });

  it('a replaced or removed logo leaves the bucket', async () => {
    const d = deps();
    d.images.put(logoKey('c1', ULID_A), 1000, 'image/png');
    d.images.put(logoKey('c1', ULID_B), 1000, 'image/jpeg');
    await saveBranding(d, { creatorId: 'c1', body: { schoolName: 'Clay', primaryColor: '#1d4ed8', logoFileId: ULID_A } });
    await saveBranding(d, { creatorId: 'c1', body: { schoolName: 'Clay', primaryColor: '#1d4ed8', logoFileId: ULID_B } });
    expect(d.images.keys()).toEqual([logoKey('c1', ULID_B)]);
    expect(await saveBranding(d, { creatorId: 'c1', body: { schoolName: 'Clay', primaryColor: '#1d4ed8', logoFileId: null } })).toMatchObject({ logoUrl: null });
    expect(d.images.keys()).toEqual([]);
  });

  it("names the school and its logo's lasting link in its learners' emails while the plan includes branding only", async () => {
    const d = deps();
    const { subscriptions, setPlan } = planSubscriptions({ c1: 'pro', c2: 'pro' });
    const { billing } = onBehalfFakes(subscriptions);
    const mail = { branding: d.branding, billing, appOrigin: 'https://app.example.com/' };
    d.images.put(logoKey('c1', ULID_A), 1000, 'image/png');
    await saveBranding(d, { creatorId: 'c1', body: { schoolName: 'Clay', primaryColor: '#1d4ed8', logoFileId: ULID_A } });
    expect(await mailSchoolOf(mail, 'c1')).toEqual({ name: 'Clay', logoUrl: `https://app.example.com/api/public/schools/c1/logo?v=${ULID_A}` });
    expect(await schoolLogoLocation({ ...d, billing }, 'c1')).toContain(`avatars/c1/logos/${ULID_A}?signed=`);
    expect(await mailSchoolOf(mail, 'c2')).toBeUndefined();
    await expect(schoolLogoLocation({ ...d, billing }, 'c2')).rejects.toBeInstanceOf(NotFoundError);
    setPlan('c1', 'starter');
    expect(await mailSchoolOf(mail, 'c1')).toBeUndefined();
    await expect(schoolLogoLocation({ ...d, billing }, 'c1')).rejects.toBeInstanceOf(NotFoundError);
  });
});
