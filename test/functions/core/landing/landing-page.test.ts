import { describe, expect, it } from 'vitest';
import { FORBIDDEN_HTML, sanitizeLandingHtml } from '#adapters/html-sanitizer.ts';
import type { LandingSettings } from '#contracts/landing.ts';
import { AppError, ConflictError, NotFoundError, ValidationError } from '#core/errors.ts';
import {
  getLandingPage,
  PAGE_NOT_FOUND_HTML,
  publicLandingPage,
  publishLandingPage,
  saveLandingPage,
  unpublishLandingPage,
} from '#core/landing/landing-page.ts';
import { hostileLandingPage, xssPayloads } from '#test/support/xss-corpus.ts';
import { NOW, testClock } from '#test/functions/fakes/clock.ts';
import { memoryLandingPages } from '#test/functions/fakes/landing-pages.ts';

const settings: LandingSettings = {
  companyName: 'Acme Academy',
  businessType: 'education',
  colorTheme: 'warm',
  missionStatement: 'Teach everyone to cook.',
  problemSolved: 'Recipes are confusing.',
};
const page = (heading: string) =>
  `<!DOCTYPE html><html lang="en"><head><title>${heading}</title><style>h1 { color: #c2410c; }</style></head><body><h1>${heading}</h1></body></html>`;

const setup = (options: { maxContent?: number } = {}) => ({ pages: memoryLandingPages(options), sanitize: sanitizeLandingHtml, clock: testClock() });
type Deps = ReturnType<typeof setup>;

const save = (d: Deps, content: string, userId = 'u1') => saveLandingPage(d, { userId, body: { content, settings } });
const publish = (d: Deps, slug: string, userId = 'u1') => publishLandingPage(d, { userId, slug });

describe('the saved landing page', () => {
  it('is null before the first save', async () => {
    expect(await getLandingPage(setup(), 'u1')).toBeNull();
  });

  it('saves the content sanitized with its settings, and reads back the same', async () => {
    const d = setup();
    const saved = await save(d, page('Acme Academy').replace('</h1>', '</h1><img src=x onerror="alert(1)"><script>alert(2)</script>'));
    expect(saved).toMatchObject({ settings, updatedAt: NOW, publication: null });
    expect(saved.content).toContain('<h1>Acme Academy</h1>');
    expect(saved.content).toContain('color: #c2410c');
    expect(saved.content).not.toMatch(FORBIDDEN_HTML);
    expect(await getLandingPage(d, 'u1')).toEqual(saved);
  });

  it('is refused (413) when even compressed it would not fit', async () => {
    const d = setup({ maxContent: 1000 });
    await expect(save(d, page('x'.repeat(2000)))).rejects.toThrow(AppError);
    await expect(save(d, page('x'.repeat(2000)))).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect(await getLandingPage(d, 'u1')).toBeNull();
  });

  it('is refused (400) when the sanitizer cannot make it safe', async () => {
    const d = { ...setup(), sanitize: () => { throw new Error('no fixed point'); } };
    await expect(save(d, page('Acme'))).rejects.toThrow(ValidationError);
  });

  it('saved hostile content (the corpus page, and each payload in a page) matches nothing forbidden', async () => {
    const d = setup();
    expect((await save(d, hostileLandingPage)).content).not.toMatch(FORBIDDEN_HTML);
    for (const payload of xssPayloads) {
      expect((await save(d, page(`Acme ${payload}`))).content, payload).not.toMatch(FORBIDDEN_HTML);
    }
  });
});

describe('publishing', () => {
  it('publishes a sanitized snapshot of the saved page at its slug, served at /p/<slug>', async () => {
    const d = setup();
    await save(d, page('Acme Academy'));
    d.clock.advance(1000);
    const published = await publish(d, 'acme-academy');
    expect(published.publication).toEqual({ slug: 'acme-academy', path: '/p/acme-academy', publishedAt: '2026-11-21T12:00:01.000Z' });
    const served = await publicLandingPage(d, 'acme-academy');
    expect(served.status).toBe(200);
    expect(served.html).toContain('<h1>Acme Academy</h1>');
    expect(await getLandingPage(d, 'u1')).toEqual(published);
  });

  it('keeps serving the snapshot after a later save, until published again', async () => {
    const d = setup();
    await save(d, page('First'));
    await publish(d, 'acme');
    const resaved = await save(d, page('Second'));
    expect(resaved.publication?.slug).toBe('acme');
    expect((await publicLandingPage(d, 'acme')).html).toContain('First');
    await publish(d, 'acme');
    expect((await publicLandingPage(d, 'acme')).html).toContain('Second');
  });

  it('publishing before anything is saved is 404', async () => {
    await expect(publish(setup(), 'acme')).rejects.toThrow(NotFoundError);
  });

  it("another creator's slug -> 409, and neither page changes", async () => {
    const d = setup();
    await save(d, page('Mine'), 'u1');
    await save(d, page('Theirs'), 'u2');
    await publish(d, 'taken-slug', 'u2');
    await expect(publish(d, 'taken-slug', 'u1')).rejects.toThrow(new ConflictError('The address /p/taken-slug is already taken. Choose another.'));
    expect((await getLandingPage(d, 'u1'))?.publication).toBeNull();
    expect((await publicLandingPage(d, 'taken-slug')).html).toContain('Theirs');
  });

  it('moving to a new slug frees the old one, which another creator can then take', async () => {
    const d = setup();
    await save(d, page('Mine'), 'u1');
    await save(d, page('Theirs'), 'u2');
    await publish(d, 'old-slug', 'u1');
    const moved = await publish(d, 'new-slug', 'u1');
    expect(moved.publication?.path).toBe('/p/new-slug');
    expect((await publicLandingPage(d, 'old-slug')).status).toBe(404);
    expect((await publish(d, 'old-slug', 'u2')).publication?.slug).toBe('old-slug');
  });

  it('a publication that raced another change is 409 (nothing half-done)', async () => {
    const d = setup();
    await save(d, page('Mine'));
    d.pages.before('publish', (call) => {
      if (call === 1) d.pages.pages.get('u1')!.publication = { slug: 'elsewhere', publishedAt: NOW };
    });
    await expect(publish(d, 'acme')).rejects.toThrow(ConflictError);
    expect((await publicLandingPage(d, 'acme')).status).toBe(404);
  });

  it('the published page of hostile content matches nothing forbidden, even if stored content were hostile', async () => {
    const d = setup();
    // Content stored before the sanitizer changed, or written around it: publishing sanitizes it again.
    d.pages.seed('u1', { content: hostileLandingPage, settings, updatedAt: NOW, publication: null });
    await publish(d, 'hostile');
    expect((await publicLandingPage(d, 'hostile')).html).not.toMatch(FORBIDDEN_HTML);
  });
});

describe('unpublishing', () => {
  it('answers the page with publication null, the public page is gone, and twice is fine', async () => {
    const d = setup();
    await save(d, page('Acme'));
    await publish(d, 'acme');
    expect((await unpublishLandingPage(d, 'u1')).publication).toBeNull();
    expect(await publicLandingPage(d, 'acme')).toEqual({ status: 404, html: PAGE_NOT_FOUND_HTML });
    expect((await unpublishLandingPage(d, 'u1')).publication).toBeNull();
    expect((await getLandingPage(d, 'u1'))?.publication).toBeNull();
  });

  it('is 404 when nothing was ever saved', async () => {
    await expect(unpublishLandingPage(setup(), 'u1')).rejects.toThrow(NotFoundError);
  });
});

describe('the public page', () => {
  it('is a small HTML "Page not found" for an unknown slug', async () => {
    const served = await publicLandingPage(setup(), 'nobody-here');
    expect(served.status).toBe(404);
    expect(served.html).toContain('Page not found');
    expect(served.html).not.toMatch(FORBIDDEN_HTML);
  });

  it('does not even look up a slug that no page could have', async () => {
    const d = setup();
    for (const slug of ['', 'UPPER', '../../etc', 'a'.repeat(61), 'x<script>']) expect((await publicLandingPage(d, slug)).status).toBe(404);
    expect(d.pages.calls('getPublished')).toBe(0);
  });
});
