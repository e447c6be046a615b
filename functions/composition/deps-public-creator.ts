import type { CreatorOffersDeps, StorefrontDeps } from '#core/storefront/storefront.ts';
import { bundleRepository } from '#functions/composition/deps-bundles.ts';
import { membershipRepository } from '#functions/composition/deps-memberships.ts';
import { storefrontDeps } from '#functions/composition/deps-storefront.ts';

/** A creator's public page: the storefront's reads, and their bundles and memberships (issue 34) listed beside the courses. */
export const publicCreatorDeps = (): StorefrontDeps & CreatorOffersDeps => ({ ...storefrontDeps(), bundles: bundleRepository(), memberships: membershipRepository() });
