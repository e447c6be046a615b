import { useQuery } from '@tanstack/react-query';
import { Heart, Mail } from 'lucide-react';
import { useId, useState } from 'react';
import { NOTES_MAX, type CrmLearner, type QuizScore } from '@contracts/courses.ts';
import { PlanRequiredNote } from '@/components/plan-gate.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Separator } from '@/components/ui/separator.tsx';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { VerifyEmailPanel } from '@/components/verify-email.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { useEntitlements } from '@/lib/entitlements.ts';
import { crmLearnerQueryOptions, useSaveLearnerNotes, useSendRecommendation } from '../api/crm-queries.ts';
import { crmMessages as m } from '../crm-messages.ts';
import { formatDay } from '@/lib/format-date.ts';

/**
 * SPEC.md's details panel, as a side sheet: the learner's progress in each of the creator's courses (with their quiz
 * scores in the courses that have quizzes), private notes
 * (textarea, 4 rows, 'Save Notes'), the two quick actions and the timeline of what was sent. The row opens it at
 * once with what the list knows; the details arrive behind it.
 */
export function LearnerDetailsSheet({ learner, onClose }: { learner: CrmLearner | null; onClose: () => void }) {
  return (
    <Sheet open={learner !== null} onOpenChange={(open) => !open && onClose()}>
      <SheetContent side="right" className="w-full max-w-md overflow-y-auto p-6 sm:max-w-lg">
        {/* Keyed by learner: the notes draft starts again from the saved notes for each learner. */}
        {learner && <DetailsBody key={learner.id} learner={learner} />}
      </SheetContent>
    </Sheet>
  );
}

function DetailsBody({ learner }: { learner: CrmLearner }) {
  const details = useQuery(crmLearnerQueryOptions(learner.id));
  const [notes, setNotes] = useState(learner.notes);
  const saveNotes = useSaveLearnerNotes(learner.id);
  const send = useSendRecommendation(learner.id);
  const notesId = useId();
  // Without a plan (issue 29) the notes are read-only and nothing is sent: the server would refuse both.
  const readOnly = useEntitlements().locked('courses');
  const enrollments = details.data?.enrollments;

  return (
    <div className="grid gap-6 pr-4">
      <div className="grid gap-1">
        <SheetTitle className="text-lg break-all">{learner.email}</SheetTitle>
        <SheetDescription>Joined {formatDay(learner.createdAt)}</SheetDescription>
      </div>

      <section aria-labelledby={`${notesId}-progress`} className="grid gap-3">
        <h3 id={`${notesId}-progress`} className="font-medium">
          Progress overview
        </h3>
        {details.isPending ? (
          <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <Spinner /> {m.loading}
          </p>
        ) : details.isError ? (
          <p className="text-sm text-destructive">{m.loadFailed.description}</p>
        ) : (
          <ul className="grid gap-3">
            {enrollments?.map((e) => (
              <li key={e.courseId} className="grid gap-1.5">
                <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
                  <span className="font-medium">{e.courseName}</span>
                  {e.completedAt ? <Badge variant="secondary">Completed</Badge> : e.stalled && <Badge variant="outline">Stalled</Badge>}
                </div>
                <div className="flex items-center gap-3">
                  <Progress value={e.progress} aria-label={`${e.courseName}: ${e.progress}% complete`} className="flex-1" />
                  <span className="w-10 text-right text-xs tabular-nums">{e.progress}%</span>
                </div>
                <p className="text-xs text-muted-foreground">
                  Enrolled {formatDay(e.enrolledAt)} · Last activity {formatDay(e.lastActivity)}
                </p>
                {e.quizzes.length > 0 && <QuizScores courseName={e.courseName} quizzes={e.quizzes} />}
              </li>
            ))}
          </ul>
        )}
      </section>

      <Separator />

      {readOnly && <PlanRequiredNote plan="starter" reason={m.noPlan} announce={false} />}

      <fieldset disabled={readOnly} aria-label={readOnly ? 'Notes and quick actions (read-only)' : undefined} className="grid min-w-0 gap-6">
        <form
          className="grid gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            saveNotes.mutate(notes);
          }}
        >
          <Label htmlFor={notesId}>Notes</Label>
          <Textarea
            id={notesId}
            rows={4}
            maxLength={NOTES_MAX}
            value={notes}
            placeholder="Private notes about this learner"
            onChange={(event) => setNotes(event.target.value)}
          />
          <Button type="submit" className="justify-self-start" loading={saveNotes.isPending}>
            Save Notes
          </Button>
        </form>

        <section aria-labelledby={`${notesId}-actions`} className="grid gap-2">
          <h3 id={`${notesId}-actions`} className="font-medium">
            Quick actions
          </h3>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" disabled={send.isPending} onClick={() => send.mutate(m.sendResources.recommendation)}>
              <Mail aria-hidden="true" />
              {m.sendResources.label}
            </Button>
            <Button variant="outline" disabled={send.isPending} onClick={() => send.mutate(m.sendEncouragement.recommendation)}>
              <Heart aria-hidden="true" />
              {m.sendEncouragement.label}
            </Button>
          </div>
          {send.error instanceof ApiError && send.error.code === 'EMAIL_NOT_VERIFIED' && (
            <VerifyEmailPanel reason={`${send.error.message} Then send it again.`} />
          )}
        </section>
      </fieldset>

      <section aria-labelledby={`${notesId}-timeline`} className="grid gap-2">
        <h3 id={`${notesId}-timeline`} className="font-medium">
          Timeline
        </h3>
        {details.data && details.data.timeline.length === 0 && <p className="text-sm text-muted-foreground">Nothing sent to this learner yet.</p>}
        <ol className="grid gap-2">
          {details.data?.timeline.map((entry) => (
            <li key={`${entry.sentAt}-${entry.text}`} className="rounded-md border p-3 text-sm">
              <p>{entry.text}</p>
              <p className="text-xs text-muted-foreground">
                Sent <time dateTime={entry.sentAt}>{formatDay(entry.sentAt)}</time>
              </p>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

const attemptsLabel = (attempts: number): string => (attempts === 1 ? '1 attempt' : `${attempts} attempts`);

/** One enrolment's quizzes: each one's best score, passed or not, and the attempts the learner made. */
function QuizScores({ courseName, quizzes }: { courseName: string; quizzes: QuizScore[] }) {
  return (
    <div className="mt-1 grid gap-2 rounded-md border bg-subtle p-3">
      <h4 className="text-xs font-medium">Quiz scores</h4>
      <ul aria-label={`Quiz scores in ${courseName}`} className="grid gap-2">
        {quizzes.map((quiz) => (
          <li key={quiz.lessonId} className="grid gap-1" data-testid="quiz-score">
            <span className="text-sm font-medium break-words">{quiz.title}</span>
            <span className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
              {quiz.attempts === 0 ? (
                <Badge variant="outline" className="text-muted-foreground">
                  Not taken
                </Badge>
              ) : quiz.passed ? (
                <Badge className="border-transparent bg-emerald-100 text-emerald-900">Passed</Badge>
              ) : (
                <Badge variant="outline" className="border-destructive/50 text-destructive">
                  Not passed
                </Badge>
              )}
              <span>
                {quiz.bestScore === null ? (
                  'No score yet'
                ) : (
                  <>
                    Best score <span className="font-medium text-foreground tabular-nums">{quiz.bestScore}%</span>
                  </>
                )}
              </span>
              <span aria-hidden="true">·</span>
              <span className="tabular-nums">{attemptsLabel(quiz.attempts)}</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
