/**
 * The ports only the use cases of core/storefront use (docs/decisions/0029-rooms-match-the-domains.md). Adapters
 * in functions/data and functions/adapters implement them; the ports several domains share are in core/ports.ts.
 */

/**
 * Pictures in the private files bucket (the creators' avatars): uploaded by the browser with a presigned PUT whose
 * signature fixes the type and exact size, checked again on use (HeadObject), shown through presigned GETs.
 */
export interface ImageStore {
  uploadUrl(key: string, input: { contentType: string; contentLength: number; ttlSeconds: number }): Promise<string>;
  head(key: string): Promise<{ size: number; contentType: string | undefined } | undefined>;
  /** A presigned GET signed as at `signedAt` (so the same window gives the same URL, which the browser can cache). */
  viewUrl(key: string, input: { ttlSeconds: number; signedAt: Date }): Promise<string>;
  /** Deletes the object (a missing one is fine). */
  delete(key: string): Promise<void>;
}
