import type { BundleDeps, PublicBundleDeps } from '#core/bundles/bundles.ts';
import { sellerOf } from '#core/storefront/storefront.ts';
import type { BundleRepository } from '#core/ports.ts';
import { dynamoBundles } from '#data/bundles.ts';
import { clock, courseRepository, ids } from '#functions/composition/deps.ts';
import { storefrontDeps } from '#functions/composition/deps-storefront.ts';

/** Bundles (issue 34): their table module, and the creator's and the public page's use cases over it. */
let bundles: BundleRepository | undefined;

export const bundleRepository = (): BundleRepository => (bundles ??= dynamoBundles());

export const bundleDeps = (): BundleDeps => ({ bundles: bundleRepository(), courses: courseRepository(), clock, ids });

/** The public bundle page: the bundle and its courses, and who sells it as the course page names them. */
export const publicBundleDeps = (): PublicBundleDeps => ({
  bundles: bundleRepository(),
  courses: courseRepository(),
  seller: (creatorId) => sellerOf(storefrontDeps(), creatorId),
});
