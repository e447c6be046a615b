import * as z from 'zod';
import { isoDate } from './common.ts';

/**
 * Email sequences (issue 33 part 2; ../shared/API.md "Drip release and email sequences", docs/api.md "Email sequences"):
 * a creator's emails that go by themselves to a learner after a trigger (enrolled in a course or any course, completed a
 * course, inactive for some days), one step after another, each after its delay. The placeholders and their filling are
 * here because the editor's preview and the sender fill them the same way.
 */

export const sequenceTriggerKinds = ['enrolled', 'completed', 'inactive'] as const;
export type SequenceTriggerKind = (typeof sequenceTriggerKinds)[number];

/** The trigger select's labels, in its order. */
export const sequenceTriggerLabels: Record<SequenceTriggerKind, string> = {
  enrolled: 'Enrolled in a course',
  completed: 'Completed a course',
  inactive: 'Inactive for some days',
};

export const SEQUENCE_NAME_MAX = 120;
export const SEQUENCE_SUBJECT_MAX = 200;
export const SEQUENCE_BODY_MAX = 20_000;
export const SEQUENCE_STEPS_MAX = 20;
export const SEQUENCE_DELAY_MAX = 365;
export const INACTIVE_DAYS_MIN = 3;
export const INACTIVE_DAYS_MAX = 90;
/** Sequences one creator may hold (each one is read for every enrolment change of theirs). */
export const SEQUENCES_MAX = 50;

/** The placeholders a subject or body may hold, and what each stands for. */
export const sequencePlaceholders = {
  learnerName: "The learner's name",
  courseTitle: "The course's title",
} as const;
export type SequencePlaceholder = keyof typeof sequencePlaceholders;

/** What the editor's preview fills the placeholders with. */
export const samplePlaceholders: Record<SequencePlaceholder, string> = { learnerName: 'Alex Sample', courseTitle: 'Your course' };

/**
 * A text with `{{learnerName}}` and `{{courseTitle}}` filled (spaces inside the braces allowed); any other `{{...}}`
 * is left as written, so a creator sees their typo in the preview rather than an empty gap in the email.
 */
export const fillPlaceholders = (text: string, values: Record<SequencePlaceholder, string>): string =>
  text.replace(/\{\{\s*(learnerName|courseTitle)\s*\}\}/g, (_whole, name: SequencePlaceholder) => values[name]);

const name = z.string().trim().min(1, 'Enter a name.').max(SEQUENCE_NAME_MAX, `Use at most ${SEQUENCE_NAME_MAX} characters.`);
const subject = z.string().trim().min(1, 'Enter a subject.').max(SEQUENCE_SUBJECT_MAX, `Use at most ${SEQUENCE_SUBJECT_MAX} characters.`);
const body = z.string().trim().min(1, 'Write the email.').max(SEQUENCE_BODY_MAX, `Use at most ${SEQUENCE_BODY_MAX} characters.`);

export const sequenceStep = z.strictObject({
  /** Days after the trigger (the first step) or after the step before. */
  delayDays: z.number().int().min(0, 'At least 0 days.').max(SEQUENCE_DELAY_MAX, `At most ${SEQUENCE_DELAY_MAX} days.`),
  subject,
  /** Markdown (the lesson editor's dialect), with the placeholders. */
  body,
});
export type SequenceStep = z.infer<typeof sequenceStep>;

/**
 * What starts a sequence for a learner. `courseId` null: any of the creator's courses. `days` only for `inactive`
 * (days without activity in the course, 3..90).
 */
export const sequenceTrigger = z
  .strictObject({
    kind: z.enum(sequenceTriggerKinds),
    courseId: z.string().min(1).max(100).nullable(),
    days: z.number().int().min(INACTIVE_DAYS_MIN, `At least ${INACTIVE_DAYS_MIN} days.`).max(INACTIVE_DAYS_MAX, `At most ${INACTIVE_DAYS_MAX} days.`).optional(),
  })
  .superRefine((t, ctx) => {
    if (t.kind === 'inactive' && t.days === undefined) ctx.addIssue({ code: 'custom', path: ['days'], message: 'Say after how many days without activity.' });
    if (t.kind !== 'inactive' && t.days !== undefined) ctx.addIssue({ code: 'custom', path: ['days'], message: 'Only an inactivity trigger has days.' });
  });
export type SequenceTrigger = z.infer<typeof sequenceTrigger>;

const steps = z.array(sequenceStep).min(1, 'Add at least one email.').max(SEQUENCE_STEPS_MAX, `At most ${SEQUENCE_STEPS_MAX} emails.`);

/** POST /api/sequences. */
export const createSequenceBody = z.strictObject({ name, trigger: sequenceTrigger, steps, active: z.boolean() });
export type CreateSequenceBody = z.infer<typeof createSequenceBody>;

/** PATCH /api/sequences/{sequenceId}: any of the fields; the others stay. */
export const updateSequenceBody = z
  .strictObject({ name: name.optional(), trigger: sequenceTrigger.optional(), steps: steps.optional(), active: z.boolean().optional() })
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'Change at least one field.');
export type UpdateSequenceBody = z.infer<typeof updateSequenceBody>;

export const sequenceView = z.object({
  id: z.string(),
  name: z.string(),
  trigger: sequenceTrigger,
  steps: z.array(sequenceStep),
  active: z.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type SequenceView = z.infer<typeof sequenceView>;

/** GET /api/sequences: the creator's sequences, oldest first. */
export const sequenceList = z.object({ items: z.array(sequenceView) });
export type SequenceList = z.infer<typeof sequenceList>;

const count = z.number().int().min(0);

/**
 * GET /api/sequences/{sequenceId}/stats: learners who entered (a trigger event that reached its first step), emails
 * sent per step (in the steps' order), and learners who left it because they unsubscribed from the creator's emails.
 */
export const sequenceStats = z.object({ entered: count, sent: z.array(count), unsubscribed: count });
export type SequenceStats = z.infer<typeof sequenceStats>;
