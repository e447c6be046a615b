/** What the admin analytics say, in one place: SPEC.md sections 2 and 8 word for word. Tests import them too. */
export const adminMessages = {
  loading: 'Loading analytics...',
  loadFailed: { title: 'Error', description: 'Failed to load admin statistics' },
  noAffiliates: 'No affiliates yet',
  noActivity: 'No activity in the last 30 days.',
} as const;
