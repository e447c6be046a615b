import type { GenerationReplay, LandingPageRepository, PublishedPage, StoredLandingPage, TextModel } from '#core/landing/ports.ts';
import { UpstreamError } from '#core/errors.ts';
import { copy, withHooks } from './hooks.ts';

/**
 * Landing pages with the conditions of functions/data/landing-pages.ts: a slug belongs to the creator holding it,
 * publishing reserves the slug, frees the old one and sets the page's publication together, and only while the page
 * is still published where the caller read it; the generation slot is taken only when free or expired.
 */
export const memoryLandingPages = (options: { maxContent?: number } = {}) => {
  const pages = new Map<string, StoredLandingPage>();
  const slugs = new Map<string, PublishedPage>();
  const locks = new Map<string, { holder: string; expiresAt: number }>();
  const replays = new Map<string, GenerationReplay>();
  const replayId = (userId: string, key: string) => `${userId}\u0000${key}`;
  const fits = (html: string) => html.length <= (options.maxContent ?? Infinity);

  const repo = withHooks<LandingPageRepository>({
    async getPage(userId) {
      const page = pages.get(userId);
      return page && copy(page);
    },

    async savePage(userId, page) {
      if (!fits(page.content)) return 'too-large';
      const saved: StoredLandingPage = { ...copy(page), publication: pages.get(userId)?.publication ?? null };
      pages.set(userId, saved);
      return copy(saved);
    },

    async publish({ userId, publication, html, previousSlug }) {
      if (!fits(html)) return 'too-large';
      const holder = slugs.get(publication.slug);
      if (holder && holder.creatorId !== userId) return 'slug-taken';
      const page = pages.get(userId);
      if (!page || (page.publication?.slug ?? null) !== previousSlug) return 'changed';
      if (previousSlug !== null && previousSlug !== publication.slug && slugs.get(previousSlug)?.creatorId === userId) slugs.delete(previousSlug);
      slugs.set(publication.slug, { creatorId: userId, html, publishedAt: publication.publishedAt });
      page.publication = copy(publication);
      return 'published';
    },

    async unpublish({ userId, slug }) {
      const page = pages.get(userId);
      if (!page || page.publication?.slug !== slug) return 'changed';
      if (slugs.get(slug)?.creatorId === userId) slugs.delete(slug);
      page.publication = null;
      return 'unpublished';
    },

    async getPublished(slug) {
      const published = slugs.get(slug);
      return published && copy(published);
    },

    async acquireGenerationLock({ userId, holder, now, expiresAt }) {
      const lock = locks.get(userId);
      if (lock && lock.expiresAt > now) return false;
      locks.set(userId, { holder, expiresAt });
      return true;
    },

    async releaseGenerationLock({ userId, holder }) {
      if (locks.get(userId)?.holder === holder) locks.delete(userId);
    },

    async getReplay(userId, key) {
      const replay = replays.get(replayId(userId, key));
      return replay && copy(replay);
    },

    async putReplay(userId, key, replay) {
      replays.set(replayId(userId, key), copy(replay));
    },
  });

  return Object.assign(repo, {
    pages,
    slugs,
    locks,
    /** A page as an earlier save left it. */
    seed(userId: string, page: StoredLandingPage) {
      pages.set(userId, copy(page));
      if (page.publication) slugs.set(page.publication.slug, { creatorId: userId, html: page.content, publishedAt: page.publication.publishedAt });
    },
  });
};

export type MemoryLandingPages = ReturnType<typeof memoryLandingPages>;

type Answer = { text: string; stopReason: string } | Error;

/**
 * The text model: answers the queued answers in order (an Error is thrown as the adapter throws: UpstreamError with
 * its cause), then `fallback` for every further call. Remembers each prompt it was given.
 */
export const memoryTextModel = (fallback: (prompt: string) => string) => {
  const queue: Answer[] = [];
  const prompts: { system: string; prompt: string; maxTokens: number }[] = [];
  const model = withHooks<TextModel>({
    async generate(input) {
      prompts.push(copy(input));
      const next = queue.shift();
      if (next instanceof Error) throw Object.assign(new UpstreamError('The text model did not answer.'), { cause: next });
      return next ?? { text: fallback(input.prompt), stopReason: 'end_turn' };
    },
  });
  return Object.assign(model, {
    prompts,
    /** The next answers, in order. */
    answer(...answers: Answer[]) {
      queue.push(...answers);
    },
  });
};

export type MemoryTextModel = ReturnType<typeof memoryTextModel>;
