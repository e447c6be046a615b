/**
 * What the integrations screen says, in one place: SPEC.md section 8's toasts word for word, and this feature's own
 * texts for what the spec does not cover (loading, the saved-secret placeholder). Tests import them too.
 */
export const integrationsMessages = {
  saved: { title: 'Integrations saved', description: 'Your integration settings have been updated successfully.' },
  saveFailed: { title: 'Save failed', description: 'Failed to save integration settings' },
  notAuthenticated: { title: 'Save failed', description: 'User not authenticated' },
  loadFailed: { title: 'Error', description: 'Failed to load integration settings' },
  savedSecretPlaceholder: 'Saved — leave blank to keep',
  save: 'Save Integrations',
  saving: 'Saving...',
  connected: 'Connected',
  disconnected: 'Disconnected',
  /** A creator without a plan (issue 29). */
  noPlan: 'Your saved settings stay as they are; connecting and changing integrations need a plan. Choose Starter or Pro to carry on.',
  testConnection: 'Test connection',
  testing: 'Testing...',
  testHint: 'Tests the saved settings with the provider.',
  testPassed: (name: string) => ({ title: `${name} connected`, description: `${name} accepted the saved settings.` }),
  testFailed: (name: string) => `${name} is not connected`,
} as const;
