/** What the Bundles screen says, in one place. Tests import them too. */
export const bundlesMessages = {
  title: 'Bundles',
  description: 'Several of your published courses sold together at one price, on a page of their own.',
  create: 'Create bundle',
  loading: 'Loading your bundles...',
  loadFailed: 'Your bundles could not be loaded.',
  retry: 'Try again',
  empty: {
    title: 'No bundles yet',
    description:
      'Sell two or more of your published courses together for less than their separate prices. Each bundle gets a page to share; buyers are enrolled in every course at once.',
  },
  form: {
    createTitle: 'Create a bundle',
    editTitle: 'Edit bundle',
    description: 'Choose 2 to 50 of your published courses and the price they sell for together.',
    create: 'Create bundle',
    save: 'Save changes',
    created: 'Bundle created',
    saved: 'Bundle saved',
    failed: 'The bundle could not be saved.',
    search: 'Search your courses',
    noCourses: 'Publish at least two courses first: a bundle holds your published courses.',
    noMatch: 'No course matches your search.',
  },
  toggle: {
    on: 'Bundle on sale',
    off: 'Bundle off sale',
    failed: 'The bundle could not be changed',
  },
  link: {
    copied: 'Link copied',
    copyFailed: 'The link could not be copied: select it and copy it by hand.',
  },
  remove: {
    title: (title: string) => `Delete ${title}?`,
    action: 'Delete bundle',
    done: 'Bundle deleted',
    failed: 'The bundle could not be deleted',
  },
} as const;
