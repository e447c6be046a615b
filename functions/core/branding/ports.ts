/**
 * The ports of core/branding (decision 0029). The storefront, the player and the mail read a creator's branding
 * through `BrandingRepository.get` too.
 */

/** A creator's branding as stored: the logo, when there is one, is `avatars/<creatorId>/logos/<id>` in the files bucket. */
export interface StoredBranding {
  readonly creatorId: string;
  readonly schoolName: string;
  readonly primaryColor: string;
  readonly logo: { readonly id: string; readonly contentType: string } | null;
  readonly updatedAt: string;
}

export interface BrandingRepository {
  /** The creator's branding, or undefined before the first save (one read). */
  get(creatorId: string): Promise<StoredBranding | undefined>;
  /** Writes the whole branding. */
  save(branding: StoredBranding): Promise<void>;
}
