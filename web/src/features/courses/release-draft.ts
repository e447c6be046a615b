import { RELEASE_DAYS_MAX, type LessonRelease } from '@contracts/courses.ts';
import { formatSessionStart } from '@/lib/format-session.ts';

/**
 * A lesson's drip release as the lesson dialog edits it (issue 33): the kind, a local date and time (the browser's
 * zone, as `datetime-local` gives it) or a number of days, as typed. Checked here with the contract's bounds; the server
 * checks again.
 */
export interface ReleaseDraft {
  kind: LessonRelease['kind'];
  /** `YYYY-MM-DDTHH:mm` in the browser's zone. */
  at: string;
  days: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as `datetime-local` shows it, in the browser's zone. */
export const localInput = (iso: string): string => {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

export const draftFromRelease = (release: LessonRelease | undefined): ReleaseDraft => ({
  kind: release?.kind ?? 'immediate',
  at: release?.kind === 'date' ? localInput(release.at) : '',
  days: release?.kind === 'afterEnrollment' ? String(release.days) : '7',
});

/** The release the draft stands for, or the message to show beside its field. */
export const checkReleaseDraft = (draft: ReleaseDraft): { release: LessonRelease } | { error: string } => {
  if (draft.kind === 'immediate') return { release: { kind: 'immediate' } };
  if (draft.kind === 'date') {
    const at = new Date(draft.at);
    return draft.at && !Number.isNaN(at.getTime()) ? { release: { kind: 'date', at: at.toISOString() } } : { error: 'Choose the date and time it opens.' };
  }
  const days = Number(draft.days);
  return Number.isInteger(days) && days >= 1 && days <= RELEASE_DAYS_MAX
    ? { release: { kind: 'afterEnrollment', days } }
    : { error: `Give a whole number of days from 1 to ${RELEASE_DAYS_MAX}.` };
};

/** How the course outline states a release: null for immediate (nothing to say). */
export const describeRelease = (release: LessonRelease | undefined): string | null => {
  if (!release || release.kind === 'immediate') return null;
  if (release.kind === 'date') return `Opens ${formatSessionStart(release.at)}`;
  return `Opens ${release.days} day${release.days === 1 ? '' : 's'} after enrolment`;
};
