/** What the Coupons screen says, in one place. Tests import them too. */
export const couponsMessages = {
  title: 'Coupons',
  description: "Discount codes for your courses. Buyers type them on a course's page before paying.",
  create: 'Create coupon',
  loading: 'Loading your coupons...',
  loadFailed: 'Your coupons could not be loaded.',
  retry: 'Try again',
  loadMore: 'Load more',
  empty: {
    title: 'No coupons yet',
    description:
      "Give buyers a code for a discount on your courses: a percentage or an amount off, on all your courses or a few, for as long or as many uses as you like. Buyers enter it on a course's page and Stripe applies it at checkout.",
  },
  form: {
    title: 'Create a coupon',
    description: 'Buyers type the code on a course page. You can switch it off or delete it later.',
    submit: 'Create coupon',
    created: 'Coupon created',
    failed: 'The coupon could not be created.',
    notConnected: 'Connect Stripe in your profile first',
    notConnectedDetail: 'Coupons are applied by Stripe at checkout, on your own Stripe account.',
    connect: 'Set up payments',
  },
  toggle: {
    on: 'Coupon switched on',
    off: 'Coupon switched off',
    failed: 'The coupon could not be changed',
  },
  remove: {
    title: (code: string) => `Delete ${code}?`,
    action: 'Delete coupon',
    done: 'Coupon deleted',
    failed: 'The coupon could not be deleted',
  },
} as const;
