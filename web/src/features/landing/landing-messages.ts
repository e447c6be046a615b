import { LANDING_PAGE_COST } from '@contracts/credits.ts';

/**
 * What the generator says, in one place: the toasts of SPEC.md sections 5 and 8 word for word, and this feature's
 * own texts for what the spec does not cover (a generation already running, publishing). Tests import them too.
 */
export const landingMessages = {
  insufficientCredits: {
    title: 'Insufficient AI Credits',
    description: `You need ${LANDING_PAGE_COST} AI credits to generate a landing page. Please top up your credits.`,
  },
  generated: { title: 'Landing page generated!', description: 'Your AI-powered landing page is ready for customization.' },
  generationFailed: { title: 'Generation failed', description: 'There was an error generating your landing page.' },
  generationRunning: {
    title: 'Generation already running',
    description: 'A landing page is already being generated. Wait for it to finish, then try again.',
  },
  saved: { title: 'Landing page saved!', description: 'Your landing page has been saved successfully.' },
  saveFailed: { title: 'Save failed', description: 'There was an error saving your landing page.' },
  authenticationRequired: { title: 'Authentication required', description: 'Please log in to save your landing page.' },
  published: { title: 'Landing page published!' },
  publishFailed: { title: 'Publish failed', description: 'There was an error publishing your landing page.' },
  publishNeedsSave: { title: 'Publish failed', description: 'Save your landing page before publishing it.' },
  unpublished: { title: 'Landing page unpublished', description: 'Its address no longer shows your page.' },
  unpublishFailed: { title: 'Unpublish failed', description: 'There was an error unpublishing your landing page.' },
  slugTaken: 'That address is taken. Choose another one.',
  linkCopied: { title: 'Link copied' },
  copyFailed: { title: 'Copy failed', description: 'Select the link and copy it yourself.' },
} as const;
