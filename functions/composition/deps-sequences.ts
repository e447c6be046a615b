import { sanitizeLessonHtml } from '#adapters/html-sanitizer.ts';
import type { EntryDeps } from '#core/sequences/entries.ts';
import type { SequenceEntryRepository, SequenceRepository } from '#core/sequences/ports.ts';
import type { SequenceSenderDeps } from '#core/sequences/sender.ts';
import type { SequenceDeps } from '#core/sequences/sequences.ts';
import { dynamoCampaigns } from '#data/campaigns.ts';
import { dynamoLearnerProfiles } from '#data/learner-profiles.ts';
import { dynamoSchoolUnsubscribes, dynamoSequenceEntries, dynamoSequences } from '#data/sequences.ts';
import { appOrigin, clock, courseRepository, enrollmentRepository, ids, mailSchool } from '#functions/composition/deps.ts';
import { startMailSender } from '#functions/composition/mail-sender-runs.ts';
import { schoolUnsubscribeLinks } from '#functions/composition/school-unsubscribe-links.ts';

/**
 * The composition of email sequences (issue 33 part 2): the routes, the 'sequence-sender' job, and the stream
 * reaction that enters learners (which takes the sequences and entries alone: the reactions' bundle is near its budget).
 */
let sequences: SequenceRepository | undefined;
let entries: SequenceEntryRepository | undefined;

export const sequenceRepository = (): SequenceRepository => (sequences ??= dynamoSequences());
export const sequenceEntryRepository = (): SequenceEntryRepository => (entries ??= dynamoSequenceEntries());

/** The routes' use cases. */
export const sequenceDeps = (): SequenceDeps => ({ sequences: sequenceRepository(), courses: courseRepository(), clock, ids });

/** The stream reaction's: a creator's sequences and the entries. */
export const sequenceEntryDeps = (): Omit<EntryDeps, 'sequencesOf'> & { sequences: Pick<SequenceRepository, 'list'> } => ({
  sequences: sequenceRepository(),
  entries: sequenceEntryRepository(),
});

/** The 'sequence-sender' job's: the due entries, what decides them, what their emails are made of. */
export const sequenceSenderDeps = (warn: SequenceSenderDeps['warn']): SequenceSenderDeps => {
  const campaigns = dynamoCampaigns();
  const profiles = dynamoLearnerProfiles();
  return {
    sequences: sequenceRepository(),
    entries: sequenceEntryRepository(),
    enrolments: enrollmentRepository(),
    unsubscribes: dynamoSchoolUnsubscribes(),
    suppressed: (emails) => campaigns.suppressed(emails),
    learnerName: async (learnerId) => (await profiles.get(learnerId))?.certificateName || undefined,
    school: mailSchool,
    unsubscribeLink: schoolUnsubscribeLinks(appOrigin()),
    sanitize: sanitizeLessonHtml,
    clock,
    startSender: startMailSender,
    warn,
  };
};
