import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Send } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import type { LessonAssignment as Assignment } from '@contracts/courses.ts';
import { SUBMISSION_TEXT_MAX, type MySubmission } from '@contracts/submissions.ts';
import { SubmissionFiles } from '@/components/assignment/submission-files.tsx';
import { SubmissionStatusBadge } from '@/components/assignment/submission-status.tsx';
import { Button } from '@/components/ui/button.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { RefusalAlert } from '@/components/ui/refusal-alert.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { formatSessionStart } from '@/lib/format-session.ts';
import { learnerLessonQueryOptions, learnerOutlineQueryOptions, mySubmissionFileUrl, mySubmissionQueryOptions, useSubmitAssignment } from '../api/learning-queries.ts';
import { LessonBody } from './lesson-body.tsx';
import { openDownload } from './open-download.ts';
import { SubmissionFilePicker, useSubmissionFiles } from './submission-file-picker.tsx';

/**
 * An assignment lesson (issue 35 point 2): the creator's instructions (the server's sanitized HTML), then the learner's
 * latest submission and where it stands: waiting for review, passed, or needs revision with the creator's feedback.
 * The answer box shows before the first submission and after a revision was asked for (the server refuses any other
 * time), filled with the answer that needs revising. A pass completes the lesson on the server; when it is seen here
 * while the outline still has no tick, the outline is read again so the tick and the progress bar follow.
 */
export function LessonAssignment({ courseId, lessonId, assignment, completed }: { courseId: string; lessonId: string; assignment: Assignment; completed: boolean }) {
  const mine = useQuery(mySubmissionQueryOptions(courseId, lessonId));
  const queryClient = useQueryClient();
  const latest = mine.data?.submission ?? null;
  const passedUnticked = latest?.status === 'passed' && !completed;
  useEffect(() => {
    if (!passedUnticked) return;
    void queryClient.invalidateQueries({ queryKey: learnerOutlineQueryOptions(courseId).queryKey });
    void queryClient.invalidateQueries({ queryKey: learnerLessonQueryOptions(courseId, lessonId).queryKey });
  }, [passedUnticked, courseId, lessonId, queryClient]);

  return (
    <div className="grid gap-5">
      <section aria-label="Instructions">
        <LessonBody html={assignment.html} />
      </section>
      {mine.isPending ? (
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <Spinner /> Loading your submission...
        </p>
      ) : mine.isError ? (
        <LoadFailed message="Your submission could not be loaded." onRetry={() => void mine.refetch()} retrying={mine.isFetching} />
      ) : (
        <>
          {latest && <SubmissionState submission={latest} />}
          {(latest === null || latest.status === 'needs_revision') && (
            <AnswerForm key={latest?.id ?? 'first'} courseId={courseId} lessonId={lessonId} previous={latest} acceptsFiles={assignment.acceptsFiles} />
          )}
        </>
      )}
    </div>
  );
}

/** Where the latest submission stands, with what was handed in and the creator's feedback. */
function SubmissionState({ submission }: { submission: MySubmission }) {
  const { status } = submission;
  return (
    <section aria-labelledby="my-submission-title" className="grid gap-3 rounded-lg border p-4" data-testid="my-submission">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="my-submission-title" className="text-base font-semibold">
          Your submission
        </h3>
        <SubmissionStatusBadge status={status} />
      </div>
      <p className="text-sm text-muted-foreground">
        {status === 'submitted'
          ? `Handed in ${formatSessionStart(submission.submittedAt)}. Your creator will review it; we will email you when they have.`
          : status === 'passed'
            ? `${submission.gradedAt ? `Passed ${formatSessionStart(submission.gradedAt)}` : 'Passed'}. This lesson is complete.`
            : 'Your creator asked you to revise it. Change your answer below and hand it in again.'}
      </p>
      {submission.feedback && (
        <div className="grid gap-1 rounded-md bg-muted p-3 text-sm">
          <p className="font-medium">Feedback</p>
          <p className="whitespace-pre-wrap [overflow-wrap:anywhere]" data-testid="submission-feedback">
            {submission.feedback}
          </p>
        </div>
      )}
      {status !== 'needs_revision' && submission.text && (
        <details className="text-sm">
          <summary className="cursor-pointer font-medium">Your answer</summary>
          <p className="mt-2 whitespace-pre-wrap [overflow-wrap:anywhere]" data-testid="my-submission-text">
            {submission.text}
          </p>
        </details>
      )}
      <SubmissionFiles files={submission.files} urlOf={(fileId) => mySubmissionFileUrl(submission.id, fileId)} open={openDownload} />
    </section>
  );
}

/**
 * The answer box and 'Submit' (or 'Submit again' after a revision was asked for); on an assignment that accepts files,
 * the files too (uploaded as they are picked): an answer is its text, its files, or both.
 */
function AnswerForm({ courseId, lessonId, previous, acceptsFiles }: { courseId: string; lessonId: string; previous: MySubmission | null; acceptsFiles: boolean }) {
  const submit = useSubmitAssignment(courseId, lessonId);
  const uploads = useSubmissionFiles(courseId, lessonId);
  const [text, setText] = useState(previous?.text ?? '');
  const [error, setError] = useState<string | undefined>();
  // A 400 goes under the field; any other failure (a 409 from another tab, a lost connection) above the button.
  const refusal = submit.error && !(submit.error instanceof ApiError && submit.error.status === 400) ? errorMessage(submit.error, 'Your answer could not be sent. Try again.') : undefined;

  const send = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (uploads.uploading) {
      setError('Wait for your files to finish uploading.');
      return;
    }
    const fileIds = uploads.uploadedIds;
    if (!text.trim() && fileIds.length === 0) {
      setError(acceptsFiles ? 'Write your answer or add a file before you submit it.' : 'Write your answer before you submit it.');
      return;
    }
    setError(undefined);
    submit.mutate(
      { ...(text.trim() ? { text: text.trim() } : {}), ...(fileIds.length > 0 ? { fileIds } : {}) },
      {
        onSuccess: () => toast.success('Submitted', { description: 'Your creator will review it. We will email you when they have.' }),
        onError: (failed) => {
          if (failed instanceof ApiError && failed.status === 400) setError(failed.message);
        },
      },
    );
  };

  return (
    <form noValidate aria-label="Hand in the assignment" className="grid gap-3" onSubmit={send}>
      <FormField label={previous ? 'Your revised answer' : 'Your answer'} error={error} description={`Up to ${SUBMISSION_TEXT_MAX.toLocaleString('en-GB')} characters.`}>
        <Textarea rows={8} value={text} maxLength={SUBMISSION_TEXT_MAX} onChange={(e) => setText(e.target.value)} />
      </FormField>
      {acceptsFiles && <SubmissionFilePicker uploads={uploads} disabled={submit.isPending} />}
      {refusal && <RefusalAlert>{refusal}</RefusalAlert>}
      <div>
        <Button type="submit" loading={submit.isPending} disabled={uploads.uploading}>
          {!submit.isPending && <Send aria-hidden="true" />}
          {previous ? 'Submit again' : 'Submit'}
        </Button>
      </div>
    </form>
  );
}
