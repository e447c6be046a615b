/** What the leader's Licenses and My Groups screens say, in one place. Tests import them too. */
export const leaderMessages = {
  licenses: {
    title: 'Licenses',
    description: 'Course seats licensed to your organisation.',
    loading: 'Loading your licenses...',
    loadFailed: 'Your licenses could not be loaded.',
    retry: 'Try again',
    empty: {
      title: 'No licenses yet',
      description:
        "Seats on a course for your team appear here once the course's creator grants them to your organisation, or once you buy them on the course's page. You then add your team by email in My Groups.",
    },
    manage: 'Manage seats',
    noEndDate: 'No end date',
  },
  groups: {
    title: 'My Groups',
    description: 'The teams you lead.',
    loading: 'Loading your groups...',
    loadFailed: 'Your groups could not be loaded.',
    retry: 'Try again',
    picker: 'Group',
    empty: {
      title: 'No groups yet',
      description:
        "A group is the team on one course's seats. Once the course's creator grants your organisation seats, or you buy them on the course's page, its group appears here and you add its members by email.",
    },
    ended: 'This licence has ended: its members no longer have the course (their progress is kept), and no one can be added.',
  },
  add: {
    title: 'Add members',
    description: 'Each email gets a seat and the course at once. Someone new gets an invitation to sign in.',
    emails: 'Emails',
    emailsHint: 'One email or many, separated by commas, spaces or new lines.',
    csv: 'Choose a CSV file',
    csvHint: 'Every cell that holds an email is added to the list above.',
    submit: 'Add members',
    nothing: 'Enter at least one email.',
    progress: (done: number, total: number) => `Adding ${done} of ${total}...`,
    results: 'Results',
    failedHint: 'The reason is beside each email that was not added.',
    found: (count: number, file: string) => (count === 0 ? `No emails found in ${file}.` : `${count === 1 ? '1 email' : `${count} emails`} from ${file} added to the list.`),
    unreadable: (file: string) => `${file} could not be read. Choose a CSV file, or paste the emails.`,
  },
  outcome: {
    added: 'Added',
    member: 'Already a member',
    noSeats: 'No seats left',
    invalid: 'Not an email',
    duplicate: 'Duplicate',
  },
  members: {
    title: 'Members',
    loading: 'Loading the members...',
    loadFailed: 'The members could not be loaded.',
    empty: 'No members yet: add them by email above.',
    emptyEnded: 'No members.',
    noActivity: 'No activity yet',
    notCompleted: 'Not yet',
  },
  remove: {
    title: (email: string, course: string) => `Remove ${email} from ${course}?`,
    body: (email: string) => `${email} loses access to the course but keeps their progress, and their seat becomes free for someone else.`,
    action: 'Remove member',
    done: 'Member removed',
    failed: 'The member could not be removed',
  },
  again: {
    done: 'Member added again',
    failed: 'The member could not be added again',
  },
} as const;
