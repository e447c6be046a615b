import { bedrockTextModel } from '#adapters/bedrock-text-model.ts';
import { sanitizeLandingHtml } from '#adapters/html-sanitizer.ts';
import type { GenerateLandingDeps } from '#core/landing/generate-landing-page.ts';
import type { LandingEditDeps } from '#core/landing/landing-page.ts';
import type { TextModel } from '#core/landing/ports.ts';
import { clock, creditRepository, ids, landingPageRepository, metrics } from '#functions/composition/deps.ts';

/**
 * The composition of the handlers that write HTML: the sanitizer (sanitize-html, CommonJS, so never tree-shaken) and
 * the Bedrock client stay out of the bundles that only read a page (get, unpublish, the public page).
 */
let model: TextModel | undefined;

export const textModel = (): TextModel => (model ??= bedrockTextModel());

/** Save and publish: the page store, the sanitizer, the clock. */
export const landingEditDeps = (): LandingEditDeps => ({ pages: landingPageRepository(), sanitize: sanitizeLandingHtml, clock });

/** Generation: the page store (slot and replays), the credits, the model and the sanitizer. */
export const generationDeps = (): GenerateLandingDeps => ({
  pages: landingPageRepository(),
  credits: creditRepository(),
  model: textModel(),
  sanitize: sanitizeLandingHtml,
  clock,
  ids,
  metrics,
});
