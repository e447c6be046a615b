/** What the admin analytics say, in one place: SPEC.md sections 2 and 8 word for word. Tests import them too. */
export const adminMessages = {
  loading: 'Loading analytics...',
  loadFailed: { title: 'Error', description: 'Failed to load admin statistics' },
  noAffiliates: 'No affiliates yet',
  noActivity: 'No activity in the last 30 days.',
} as const;

/**
 * What the Email Campaigns screen says: SPEC.md section 7's send toasts and button texts word for word, and this
 * screen's own texts for what the spec does not cover (loading, templates, automations, the campaign table).
 */
export const emailMessages = {
  send: 'Send Email Campaign',
  sending: 'Sending...',
  sent: { title: 'Email sent successfully!', description: 'Your email has been queued for delivery.' },
  sendFailed: { title: 'Failed to send email', description: 'Please try again later.' },
  queuedFor: (count: number) =>
    `The last campaign was queued for ${count.toLocaleString('en-GB')} ${count === 1 ? 'address' : 'addresses'}; unsubscribed and suppressed ones are skipped.`,
  customTemplate: 'Custom',
  figuresFailed: 'The email figures could not be loaded.',
  loadingCampaigns: 'Loading campaigns...',
  campaignsFailed: 'The campaigns could not be loaded.',
  loadingTemplates: 'Loading templates...',
  templatesFailed: 'The templates could not be loaded.',
  loadingAutomations: 'Loading automations...',
  automationsFailed: 'The automations could not be loaded.',
  noCampaigns: { title: 'No campaigns yet', description: 'Campaigns you send from Compose Email appear here with their delivery counts.' },
  pausedForQuota: "SES's daily sending quota is reached. Sending resumes by itself once SES allows more, within 24 hours.",
  templateSaved: { title: 'Template saved', description: (name: string) => `'${name}' now starts every email that uses it.` },
  templateSaveFailed: 'Failed to save the template',
  automationFailed: 'Failed to update the automation',
  retry: 'Try again',
} as const;
