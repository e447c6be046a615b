import { envelopeCipher } from '#adapters/envelope-cipher.ts';
import { sanitizeLessonHtml } from '#adapters/html-sanitizer.ts';
import { sqsSliceQueue } from '#adapters/sqs-slice-queue.ts';
import { unsubscribeHeaders, unsubscribeKey, unsubscribeUrl } from '#core/campaigns/campaigns.ts';
import { schoolList } from '#core/campaigns/email-content.ts';
import { firstSlice } from '#core/jobs/slices.ts';
import type { SecretCipher } from '#core/ports.ts';
import type { EntryDeps } from '#core/sequences/entries.ts';
import type { SequenceEntryRepository, SequenceRepository } from '#core/sequences/ports.ts';
import type { SequenceSenderDeps } from '#core/sequences/sender.ts';
import type { SequenceDeps } from '#core/sequences/sequences.ts';
import { dynamoCampaigns, readUnsubscribeKey } from '#data/campaigns.ts';
import { dynamoLearnerProfiles } from '#data/learner-profiles.ts';
import { dynamoSchoolUnsubscribes, dynamoSequenceEntries, dynamoSequences } from '#data/sequences.ts';
import { appOrigin, clock, courseRepository, enrollmentRepository, ids, mailSchool } from '#functions/composition/deps.ts';

/**
 * The composition of email sequences (issue 33 part 2): the routes, the 'sequence-sender' job, and the stream
 * reaction that enters learners (which takes the sequences and entries alone: the reactions' bundle is near its budget).
 */
let sequences: SequenceRepository | undefined;
let entries: SequenceEntryRepository | undefined;
let cipher: SecretCipher | undefined;

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
  const origin = appOrigin();
  let key: Promise<Uint8Array> | undefined;
  const keyOnce = () => {
    key ??= unsubscribeKey({ campaigns: { unsubscribeKey: readUnsubscribeKey }, cipher: (cipher ??= envelopeCipher()) });
    key.catch(() => (key = undefined));
    return key;
  };
  return {
    sequences: sequenceRepository(),
    entries: sequenceEntryRepository(),
    enrolments: enrollmentRepository(),
    unsubscribes: dynamoSchoolUnsubscribes(),
    suppressed: (emails) => campaigns.suppressed(emails),
    learnerName: async (learnerId) => (await profiles.get(learnerId))?.certificateName || undefined,
    school: mailSchool,
    unsubscribeLink: async (creatorId, email) => {
      const url = unsubscribeUrl(origin, await keyOnce(), email, schoolList(creatorId));
      return { url, headers: unsubscribeHeaders(url) };
    },
    sanitize: sanitizeLessonHtml,
    clock,
    startSender: (run) => sqsSliceQueue().send([firstSlice('mail-sender', `mail-sender@${run}`)]).then(() => undefined),
    warn,
  };
};
