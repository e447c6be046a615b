/** What the course builder says, in one place (the spec has no texts for it). Tests import them too. */
export const courseMessages = {
  created: { title: 'Course created', description: 'Add lessons, then publish it when it is ready.' },
  saved: { title: 'Course saved' },
  published: { title: 'Course published', description: 'Enrolled learners can now take it.' },
  unpublished: { title: 'Course unpublished', description: 'Learners no longer see it until you publish it again.' },
  deleted: { title: 'Course deleted' },
  lessonAdded: { title: 'Lesson added' },
  lessonSaved: { title: 'Lesson saved' },
  lessonDeleted: { title: 'Lesson deleted' },
  invited: (email: string) => ({ title: 'Invitation sent', description: `${email} has a new learner account and an email with how to sign in.` }),
  enrolled: (email: string) => ({ title: 'Learner enrolled', description: `${email} can now find this course in their learning.` }),
  learnerRemoved: { title: 'Learner removed', description: 'They no longer have access; their progress is kept if you enrol them again.' },
  failed: 'Something went wrong. Please try again.',
} as const;
