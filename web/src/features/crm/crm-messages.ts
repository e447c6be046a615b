import { SEND_ENCOURAGEMENT_TEXT, SEND_RESOURCES_TEXT } from '@contracts/courses.ts';

/**
 * What the learner CRM says, in one place: SPEC.md sections 2 and 8 word for word (the loading line, the empty
 * state, the toasts) and the quick actions' recommendation texts from the contract. Tests import them too.
 */
export const crmMessages = {
  loading: 'Loading learner data...',
  empty: 'No enrolled learners found. Create some courses to start getting learners!',
  loadFailed: { title: 'Error', description: 'Failed to load learner data' },
  notesSaved: { title: 'Notes saved', description: 'Learner notes have been updated successfully.' },
  notesFailed: { title: 'Save failed', description: 'Failed to save notes' },
  recommendationSent: { title: 'Recommendation sent', description: 'Your recommendation has been sent to the learner.' },
  recommendationFailed: { title: 'Send failed', description: 'Failed to send recommendation' },
  sendResources: { label: 'Send Resources', recommendation: SEND_RESOURCES_TEXT },
  sendEncouragement: { label: 'Send Encouragement', recommendation: SEND_ENCOURAGEMENT_TEXT },
  /** A creator without a plan (issue 29): the learners and notes stay readable, writing needs a plan. */
  noPlan: 'Your learners and your notes stay here to read; saving notes and sending messages to learners need a plan.',
} as const;
