/** What the Memberships screen says, in one place. Tests import them too. */
export const membershipsMessages = {
  title: 'Memberships',
  description: 'A monthly or yearly subscription to some or all of your courses, paid to your own Stripe account.',
  create: 'Create membership',
  loading: 'Loading your memberships...',
  loadFailed: 'Your memberships could not be loaded.',
  retry: 'Try again',
  empty: {
    title: 'No memberships yet',
    description:
      'Charge learners every month or year for your courses. Members read the courses while their subscription is paid, and cancel whenever they like in Stripe.',
  },
  plan: {
    title: 'Memberships are part of the Pro plan',
    description: 'Sell a subscription to your courses: a monthly or yearly price, paid to your own Stripe account.',
    unlocks: ['A monthly or yearly price for chosen courses, or all of them', 'Courses you publish later reach "All my courses" members at once', 'Members, monthly recurring revenue and cancellations at a glance'],
    upgrade: 'Upgrade to Pro',
    earlier: 'Your memberships from your time on Pro are below. Their members keep access until their subscriptions end.',
  },
  form: {
    createTitle: 'Create a membership',
    editTitle: 'Edit membership',
    description: 'A price each month or year for the courses you choose, or for all of your courses.',
    fixedPrice: 'The price and how often it is charged cannot change once members subscribe. For a new price, create a new membership.',
    create: 'Create membership',
    save: 'Save changes',
    created: 'Membership created',
    saved: 'Membership saved',
    failed: 'The membership could not be saved.',
    allCourses: 'All my courses',
    allCoursesHint: 'Every course you have published, and each one you publish later.',
    chosenCourses: 'Chosen courses',
    noCourses: 'Publish a course first: a membership gives your published courses.',
  },
  toggle: {
    on: 'Membership on sale',
    off: 'Membership off sale',
    failed: 'The membership could not be changed',
  },
  link: {
    copied: 'Link copied',
    copyFailed: 'The link could not be copied: select it and copy it by hand.',
  },
  remove: {
    title: (title: string) => `Delete ${title}?`,
    action: 'Delete membership',
    done: 'Membership deleted',
    failed: 'The membership could not be deleted',
  },
  members: {
    title: (title: string) => `Members of ${title}`,
    open: 'Members',
    loading: 'Loading the members...',
    loadFailed: 'The members could not be loaded.',
    empty: 'Nobody has subscribed yet. Share the membership\'s link to find your first members.',
    loadMore: 'Load more members',
  },
} as const;
