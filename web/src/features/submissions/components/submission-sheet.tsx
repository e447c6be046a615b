import { CircleCheck, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { FEEDBACK_MAX, type Submission } from '@contracts/submissions.ts';
import { SubmissionFiles } from '@/components/assignment/submission-files.tsx';
import { SubmissionStatusBadge } from '@/components/assignment/submission-status.tsx';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { RefusalAlert } from '@/components/ui/refusal-alert.tsx';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { formatSessionStart } from '@/lib/format-session.ts';
import { submissionFileUrl, useGradeSubmission } from '../api/submission-queries.ts';

/** Goes to a signed download URL (a function of its own so tests can replace it: jsdom has no navigation). */
export const openDownload = (url: string): void => window.location.assign(url);

/**
 * One submission, opened from the queue in a side sheet: the learner's answer as text (never HTML: what a learner
 * typed is shown as typed) and their files, then, while it waits for review, the creator's feedback and 'Mark as
 * passed' / 'Ask for revision' (a revision needs feedback: it says what to change). Once graded the sheet says so and
 * that the learner was emailed; a refusal (graded meanwhile, a newer submission took its place) shows where it was
 * asked for.
 */
export function SubmissionSheet({ submission, courseTitle, onClose }: { submission: Submission | null; courseTitle: string; onClose: () => void }) {
  return (
    <Sheet open={submission !== null} onOpenChange={(open) => !open && onClose()}>
      <SheetContent side="right" className="w-full max-w-md overflow-y-auto p-6 sm:max-w-lg">
        {submission && <SubmissionDetails key={submission.id} submission={submission} courseTitle={courseTitle} />}
      </SheetContent>
    </Sheet>
  );
}

function SubmissionDetails({ submission, courseTitle }: { submission: Submission; courseTitle: string }) {
  const grade = useGradeSubmission(submission.id);
  const [feedback, setFeedback] = useState('');
  const [feedbackError, setFeedbackError] = useState<string | undefined>();
  const [graded, setGraded] = useState<Submission | undefined>();
  const shown = graded ?? submission;
  const refusal = grade.error && !(grade.error instanceof ApiError && grade.error.status === 400) ? errorMessage(grade.error, 'The grade could not be saved. Try again.') : undefined;

  const send = (status: 'passed' | 'needs_revision') => {
    if (status === 'needs_revision' && !feedback.trim()) {
      setFeedbackError('Say what the learner should change.');
      return;
    }
    setFeedbackError(undefined);
    grade.mutate(
      { status, feedback: feedback.trim() },
      {
        onSuccess: (answer) => {
          setGraded(answer);
          toast.success(status === 'passed' ? 'Marked as passed' : 'Revision asked for', { description: `We emailed ${submission.learnerEmail}.` });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 400) setFeedbackError(error.message);
        },
      },
    );
  };

  return (
    <div className="grid gap-5 pr-4">
      <div className="grid gap-1">
        <SheetTitle className="text-lg break-all">{submission.learnerEmail}</SheetTitle>
        <SheetDescription>
          {courseTitle ? `${courseTitle} · ` : ''}
          {submission.lessonTitle}
        </SheetDescription>
      </div>
      <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        <SubmissionStatusBadge status={shown.status} />
        <span>Handed in {formatSessionStart(submission.submittedAt)}</span>
      </div>

      <section aria-label="Answer" className="grid gap-2">
        <h3 className="text-sm font-semibold">Answer</h3>
        {submission.text ? (
          <p className="max-h-96 overflow-y-auto rounded-md border bg-subtle p-3 text-sm whitespace-pre-wrap [overflow-wrap:anywhere]" data-testid="submission-text">
            {submission.text}
          </p>
        ) : (
          <p className="text-sm text-muted-foreground">No written answer: see the files.</p>
        )}
      </section>
      <SubmissionFiles files={submission.files} urlOf={(fileId) => submissionFileUrl(submission.id, fileId)} open={openDownload} />

      {shown.status === 'submitted' ? (
        <section aria-label="Grade" className="grid gap-3 border-t pt-4">
          <FormField label="Feedback for the learner" error={feedbackError} description="Optional when it passes; needed when you ask for a revision. We email it to the learner.">
            <Textarea
              rows={5}
              value={feedback}
              maxLength={FEEDBACK_MAX}
              onChange={(e) => {
                setFeedback(e.target.value);
                setFeedbackError(undefined);
              }}
            />
          </FormField>
          {refusal && <RefusalAlert>{refusal}</RefusalAlert>}
          <div className="flex flex-wrap gap-2">
            <Button loading={grade.isPending && grade.variables.status === 'passed'} disabled={grade.isPending} onClick={() => send('passed')}>
              <CircleCheck aria-hidden="true" />
              Mark as passed
            </Button>
            <Button variant="outline" loading={grade.isPending && grade.variables.status === 'needs_revision'} disabled={grade.isPending} onClick={() => send('needs_revision')}>
              <RotateCcw aria-hidden="true" />
              Ask for revision
            </Button>
          </div>
        </section>
      ) : (
        <section aria-label="Grade" className="grid gap-2 border-t pt-4 text-sm" role={graded ? 'status' : undefined}>
          <p className="font-medium">
            {shown.status === 'passed' ? 'Passed' : 'Revision asked for'}
            {shown.gradedAt ? ` ${formatSessionStart(shown.gradedAt)}` : ''}
            {graded ? `. We emailed ${submission.learnerEmail}.` : '.'}
          </p>
          {shown.feedback && <p className="rounded-md bg-muted p-3 whitespace-pre-wrap [overflow-wrap:anywhere]">{shown.feedback}</p>}
        </section>
      )}
    </div>
  );
}
