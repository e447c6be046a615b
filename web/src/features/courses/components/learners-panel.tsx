import { useQuery } from '@tanstack/react-query';
import { UserMinus, UserPlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { enrollBody, type CourseEnrollment } from '@contracts/courses.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { Input } from '@/components/ui/input.tsx';
import { LoadFailedInline } from '@/components/ui/load-failed.tsx';
import { Progress } from '@/components/ui/progress.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { courseLearnersQueryOptions } from '../api/course-queries.ts';
import { useEnrollLearner, useRemoveLearner } from '../api/use-course-mutations.ts';
import { ConfirmDialog } from '@/components/ui/confirm-dialog.tsx';
import { VerifyEmailPanel } from '@/components/verify-email.tsx';
import { ApiError } from '@/lib/api-error.ts';

const formatDate = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(iso));

/**
 * The course's learners: invite by email (a new email gets a learner account and an invitation), the list with
 * each one's progress, and removal after a confirmation (access ends; progress is kept for a re-enrolment).
 */
export function LearnersPanel({ courseId, courseTitle }: { courseId: string; courseTitle: string }) {
  const learners = useQuery(courseLearnersQueryOptions(courseId));
  const enroll = useEnrollLearner(courseId);
  const remove = useRemoveLearner(courseId);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [removing, setRemoving] = useState<CourseEnrollment | undefined>();

  const invite = (event: FormEvent) => {
    event.preventDefault();
    const parsed = enrollBody.safeParse({ email: email.trim() });
    if (!parsed.success) {
      setError('Enter the learner’s email address.');
      return;
    }
    setError(undefined);
    enroll.mutate(parsed.data.email, { onSuccess: () => setEmail('') });
  };

  return (
    <Card aria-labelledby="learners-title" role="region">
      <CardHeader>
        <CardTitle id="learners-title">Learners</CardTitle>
        <CardDescription>Invite learners by email. A new email gets a learner account and an invitation to sign in.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 *:min-w-0">
        <form noValidate aria-label="Invite a learner" className="flex flex-wrap items-end gap-3 *:min-w-0" onSubmit={invite}>
          <FormField label="Learner email" error={error} className="flex-1 basis-48">
            <Input type="email" autoComplete="off" value={email} placeholder="learner@example.com" onChange={(e) => setEmail(e.target.value)} />
          </FormField>
          <Button type="submit" loading={enroll.isPending}>
            {!enroll.isPending && <UserPlus aria-hidden="true" />}
            Invite
          </Button>
        </form>
        {enroll.error instanceof ApiError && enroll.error.code === 'EMAIL_NOT_VERIFIED' && (
          // The invitation was refused until the creator's email is verified: verify here, then Invite again.
          <VerifyEmailPanel reason={`${enroll.error.message} Then press Invite again.`} />
        )}

        {learners.isPending ? (
          <div aria-busy="true" className="grid gap-2">
            <p className="sr-only">Loading learners...</p>
            <Skeleton className="h-12" />
            <Skeleton className="h-12" />
          </div>
        ) : learners.isError ? (
          <LoadFailedInline message="The learners could not be loaded." onRetry={() => void learners.refetch()} retrying={learners.isFetching} />
        ) : learners.data.items.length === 0 ? (
          <p className="rounded-lg border border-dashed bg-subtle px-4 py-6 text-center text-sm text-muted-foreground">No learners enrolled yet.</p>
        ) : (
          <ul className="divide-y rounded-lg border" aria-label="Enrolled learners">
            {learners.data.items.map((learner) => (
              <li key={learner.learnerId} className="flex flex-wrap items-center gap-x-4 gap-y-2 p-3" data-testid="learner-row">
                <span className="min-w-0 flex-1 basis-48">
                  <span className="block truncate text-sm font-medium">{learner.email}</span>
                  <span className="text-xs text-muted-foreground">
                    Enrolled {formatDate(learner.enrolledAt)}
                    {learner.completedAt ? ` · Completed ${formatDate(learner.completedAt)}` : ''}
                  </span>
                </span>
                <span className="flex min-w-32 flex-1 items-center gap-2">
                  <Progress value={learner.progress} aria-label={`${learner.email}: ${learner.progress}% complete`} className="flex-1" />
                  <span className="w-10 text-right text-xs tabular-nums">{learner.progress}%</span>
                </span>
                <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" aria-label={`Remove ${learner.email}`} onClick={() => setRemoving(learner)}>
                  <UserMinus aria-hidden="true" />
                  Remove
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
      <ConfirmDialog
        open={removing !== undefined}
        onOpenChange={(open) => !open && setRemoving(undefined)}
        title="Remove this learner?"
        action="Remove learner"
        busy={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing.learnerId, { onSuccess: () => setRemoving(undefined) })}
      >
        {removing?.email} loses access to “{courseTitle}”. Their progress is kept and comes back if you enrol them again.
      </ConfirmDialog>
    </Card>
  );
}
