import type { BundleDeps } from '#core/bundles/bundles.ts';
import type { BundleRepository } from '#core/ports.ts';
import { dynamoBundles } from '#data/bundles.ts';
import { clock, courseRepository, ids } from '#functions/composition/deps.ts';

/** Bundles (issue 34): their table module, and the creator's and the public page's use cases over it. */
let bundles: BundleRepository | undefined;

export const bundleRepository = (): BundleRepository => (bundles ??= dynamoBundles());

export const bundleDeps = (): BundleDeps => ({ bundles: bundleRepository(), courses: courseRepository(), clock, ids });
