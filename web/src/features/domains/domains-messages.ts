/** The words of the Domains screen (issue 32 point 2, Pro): a creator's own addresses for their storefront. */
export const domainsMessages = {
  title: 'Domains',
  description: 'Serve your school at your own address, like learn.example.com. Sign-in and your dashboard stay on the platform.',
  card: {
    title: 'Custom domains',
    description: 'Add a hostname, set the two DNS records shown at your DNS provider, then verify. We issue the certificate for you.',
    loading: 'Loading your domains...',
    loadFailed: 'Your domains could not be loaded.',
    emptyTitle: 'No custom domains yet',
    emptyBody: 'Add a hostname you own. Your storefront answers there once its records are verified.',
    plan: 'Custom domains are a Pro feature',
    planReason: 'Custom domains are part of the Pro plan. Upgrade to serve your school at your own address.',
  },
  add: {
    label: 'Hostname',
    placeholder: 'learn.example.com',
    hint: 'A subdomain you control, without https:// or a path.',
    action: 'Add domain',
    failed: 'The domain could not be added.',
    done: 'Domain added',
    doneBody: (hostname: string) => `Set the records shown for ${hostname}, then verify.`,
  },
  records: {
    title: 'DNS records to set',
    type: 'Type',
    name: 'Name',
    value: 'Value',
  },
  status: {
    pending_verification: 'Waiting for DNS',
    issuing_certificate: 'Issuing certificate',
    active: 'Active',
    failed: 'Failed',
  },
  verify: {
    action: 'Verify',
    failed: 'The domain could not be checked.',
    active: 'Your domain is live',
  },
  remove: {
    action: 'Remove',
    title: (hostname: string) => `Remove ${hostname}?`,
    body: 'Your storefront stops answering at this address at once. You can add it again later.',
    done: 'Domain removed',
    failed: 'The domain could not be removed.',
  },
  flagged: 'DNS no longer points here',
} as const;
