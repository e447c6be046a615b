import type { LandingPage, LandingPublication } from '#contracts/landing.ts';

/**
 * The ports only the use cases of core/landing use (docs/decisions/0029-rooms-match-the-domains.md). Adapters
 * in functions/data and functions/adapters implement them; the ports several domains share are in core/ports.ts.
 */

/** The text model (Bedrock Converse): one answer to one prompt. */
export interface TextModel {
  /**
   * `stopReason` is the model's own word: 'end_turn' for a finished answer, 'max_tokens' for one cut off at
   * `maxTokens`. Throws UpstreamError (with the provider's error as its cause) when the model does not answer:
   * refused, throttled, failed or timed out.
   */
  generate(input: { system: string; prompt: string; maxTokens: number }): Promise<{ text: string; stopReason: string }>;
}

/** Where and since when a page is public, as stored: the contract's publication without its derived `path`. */
export type StoredPublication = Pick<LandingPublication, 'slug' | 'publishedAt'>;

/** A creator's saved page as stored: the contract's page, its publication without the derived `path`. */
export type StoredLandingPage = Omit<LandingPage, 'publication'> & { publication: StoredPublication | null };

/** The published snapshot at a slug. */
export interface PublishedPage {
  creatorId: string;
  html: string;
  publishedAt: string;
}

/**
 * What a generation with an Idempotency-Key ended with, kept 24 hours so a retry of the same request is answered the
 * same, without a second charge or model call. `requestHash` tells a retry from another request under the same key.
 */
export type GenerationReplay =
  | { outcome: 'generated'; requestHash: string; html: string; creditsRemaining: number; expiresAt: number }
  | { outcome: 'failed'; requestHash: string; expiresAt: number };

export interface LandingPageRepository {
  getPage(userId: string): Promise<StoredLandingPage | undefined>;
  /**
   * Upsert of content and settings; a publication stays as it is (the published copy is a snapshot). Answers the page
   * as saved, or 'too-large' when its content does not fit a table item even compressed (nothing is written).
   */
  savePage(userId: string, page: Pick<StoredLandingPage, 'content' | 'settings' | 'updatedAt'>): Promise<StoredLandingPage | 'too-large'>;
  /**
   * One transaction: the slug reserved for this creator (free or already theirs) with the html snapshot, the previous
   * slug freed when the page moves, and the page's publication set, only while the page exists and is still published
   * at `previousSlug` (null: not published). 'slug-taken' when another creator holds the slug, 'changed' when the page
   * moved or went meanwhile (the caller reads again).
   */
  publish(input: {
    userId: string;
    publication: StoredPublication;
    html: string;
    previousSlug: string | null;
  }): Promise<'published' | 'slug-taken' | 'changed' | 'too-large'>;
  /** One transaction: the slug freed and the publication removed, only while the page is still published at `slug`. */
  unpublish(input: { userId: string; slug: string }): Promise<'unpublished' | 'changed'>;
  getPublished(slug: string): Promise<PublishedPage | undefined>;
  /**
   * Takes the creator's one generation slot until `expiresAt` (epoch seconds): only when it is free or its holder's
   * time ran out (`now`). False when another generation holds it.
   */
  acquireGenerationLock(input: { userId: string; holder: string; now: number; expiresAt: number }): Promise<boolean>;
  /** Frees the slot if `holder` still holds it. */
  releaseGenerationLock(input: { userId: string; holder: string }): Promise<void>;
  getReplay(userId: string, key: string): Promise<GenerationReplay | undefined>;
  putReplay(userId: string, key: string, replay: GenerationReplay): Promise<void>;
}
