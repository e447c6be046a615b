/** The words of the Developers screen (issue 31, Pro): API keys and webhook endpoints. */
export const developersMessages = {
  title: 'Developers',
  description: 'Connect your school to other tools: API keys for the public API, and webhooks that tell your systems when something happens.',
  planTitle: 'API access is a Pro feature',
  planBody: 'Upgrade to Pro to create API keys and webhook endpoints.',
} as const;
