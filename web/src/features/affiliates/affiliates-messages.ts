/** What the Affiliates screen says, in one place. Tests import them too. */
export const affiliatesMessages = {
  title: 'Affiliates',
  description: 'People who share your courses earn a commission on what their buyers pay.',
  add: 'Add affiliate',
  loading: 'Loading your affiliates...',
  loadFailed: 'Your affiliates could not be loaded.',
  retry: 'Try again',
  loadMore: 'Load more',
  empty: {
    title: 'No affiliates yet',
    description:
      'Add someone who recommends your courses and they get their own link by email. When a buyer who clicked it pays within the cookie window, they earn their commission. It is held while a refund is still possible, then approved, and you pay out what is approved with one click and a CSV.',
  },
  plan: {
    title: 'Affiliates are part of the Pro plan',
    description: 'Let the people who recommend your courses sell them for you, for a share of each sale.',
    unlocks: [
      'Affiliate links that track clicks and sales',
      'Commissions held until refunds are no longer possible',
      'One-click payouts with a CSV',
    ],
    upgrade: 'Upgrade to Pro',
    earlier: 'Your affiliates from your time on Pro are below. Their links and figures stay as they are.',
  },
  form: {
    title: 'Add an affiliate',
    description: 'We email them their own link to your page. Sales from buyers who come through it earn them a commission.',
    submit: 'Add affiliate',
    added: 'Affiliate added',
    failed: 'The affiliate could not be added.',
    taken: 'This email is an affiliate already.',
  },
  link: {
    yourPage: 'Your page',
    copied: 'Link copied',
    copyFailed: 'The link could not be copied. Select it and copy it by hand.',
  },
  commissions: {
    title: (name: string) => `Commissions of ${name}`,
    loading: 'Loading the commissions...',
    loadFailed: 'The commissions could not be loaded.',
    empty: (name: string) => `No commissions yet. One appears here when a buyer who came through ${name}'s link pays.`,
    clawbackNote: 'Clawback: the order was refunded or disputed after the payout, so the affiliate owes that commission back.',
  },
  payout: {
    title: (amount: string, name: string) => `Pay out ${amount} to ${name}?`,
    action: 'Pay out',
    done: 'Payout recorded',
    nothing: 'Nothing to pay out',
    failed: 'The payout could not be recorded',
    downloaded: 'CSV downloaded',
    downloadFailed: 'Payout recorded, but its CSV could not be downloaded',
    downloadFallback: 'Try again in a moment.',
    retry: 'Try again',
  },
} as const;
