import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { CERTIFICATE_NAME_MAX, certificateNameOf, learnerProfileBody, type LearnerProfile } from '@contracts/certificates.ts';
import { AccountDetails } from '@/components/ui/account-details.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { DeleteAccountSection } from '@/components/delete-account-section.tsx';
import { YourDataSection } from '@/components/your-data-section.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Spinner } from '@/components/ui/spinner.tsx';
import { toast, toastError } from '@/components/ui/toaster.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { useProfile } from '@/lib/session-hooks.ts';
import { learnerProfileQueryOptions, useSaveLearnerProfile } from '../api/learning-queries.ts';

/** What the screen says where a test may look for it. */
export const profileMessages = {
  title: 'Profile',
  description: 'Your account and the name on your certificates.',
  name: 'Name on certificates',
  nameHint: 'Printed on your certificates and shown on their public verification page. Leave empty to be shown by your email address, partly hidden.',
  loading: 'Loading your name on certificates...',
  loadFailed: 'Your name on certificates could not be loaded',
  save: 'Save name',
  saving: 'Saving...',
  saved: 'Profile saved',
  savedUpdating: 'Your certificates will show this name within a minute.',
  savedDone: 'Your name on certificates is saved.',
  saveFailed: 'Your name could not be saved. Try again.',
  updating: 'Updating your certificates with this name...',
} as const;

const m = profileMessages;

/** The server's word on the name from a 400: the field's own issue (`details: [{path, message}]`), else its message. */
function nameIssue(error: unknown): string | undefined {
  if (!(error instanceof ApiError) || error.code !== 'VALIDATION_FAILED') return undefined;
  const details = Array.isArray(error.details) ? (error.details as { path?: unknown; message?: unknown }[]) : [];
  const issue = details.find((d) => d.path === 'certificateName' && typeof d.message === 'string');
  return typeof issue?.message === 'string' ? issue.message : error.message;
}

/**
 * /dashboard/learner/profile: the learner's account (GET /api/me), and their "Name on certificates" (GET and PUT
 * /api/learner/profile), which new certificates carry and a change re-issues the existing ones with.
 */
export function LearnerProfileScreen() {
  const account = useProfile();
  const profile = useQuery(learnerProfileQueryOptions());
  return (
    <div className="grid max-w-2xl gap-6 *:min-w-0">
      <PageHeader title={m.title} description={m.description} />
      <AccountDetails profile={account.data} />
      {profile.isPending ? (
        <NameSkeleton />
      ) : profile.isError ? (
        <LoadFailed message={m.loadFailed} onRetry={() => void profile.refetch()} retrying={profile.isRefetching} />
      ) : (
        <CertificateNameForm saved={profile.data} />
      )}
      <YourDataSection />
      <DeleteAccountSection role="learner" />
    </div>
  );
}

/**
 * The card of the name: its heading names the field, the help text under it describes it, the server's refusal shows
 * under the field. 'Save name' is offered once the name differs from the saved one; while the certificates are being
 * re-issued with the saved name, a line under the button says so (the query polls until they are done).
 */
function CertificateNameForm({ saved }: { saved: LearnerProfile }) {
  const id = useId();
  const inputId = `${id}-name`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm({ resolver: zodResolver(learnerProfileBody), defaultValues: { certificateName: saved.certificateName } });
  const save = useSaveLearnerProfile();
  const value = useWatch({ control, name: 'certificateName' });
  const unchanged = certificateNameOf(value) === saved.certificateName;
  const error = errors.certificateName?.message;

  const onSubmit = handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: (profile) => {
        reset({ certificateName: profile.certificateName });
        toast.success(m.saved, { description: profile.certificatesUpdating ? m.savedUpdating : m.savedDone });
      },
      onError: (failure) => {
        const issue = nameIssue(failure);
        if (issue) setError('certificateName', { message: issue }, { shouldFocus: true });
        else toastError(failure, m.saveFailed);
      },
    }),
  );

  return (
    <Card>
      <form noValidate onSubmit={(event) => void onSubmit(event)}>
        <CardHeader>
          {/* The heading is the field's label: one visible name for both, and a click on it focuses the field. */}
          <CardTitle>
            <label htmlFor={inputId}>{m.name}</label>
          </CardTitle>
          <CardDescription id={hintId}>{m.nameHint}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="grid gap-2">
            <Input
              autoComplete="name"
              maxLength={CERTIFICATE_NAME_MAX}
              id={inputId}
              aria-describedby={error ? `${hintId} ${errorId}` : hintId}
              aria-invalid={error ? true : undefined}
              {...register('certificateName')}
            />
            {error && (
              <p id={errorId} className="text-sm font-medium text-destructive">
                {error}
              </p>
            )}
          </div>
          <div className="flex flex-wrap items-center gap-x-4 gap-y-3">
            <Button type="submit" className="max-sm:w-full" loading={save.isPending} disabled={unchanged}>
              {save.isPending ? m.saving : m.save}
            </Button>
            {saved.certificatesUpdating && (
              <p role="status" className="flex min-w-0 items-start gap-2 text-sm text-muted-foreground">
                <Spinner className="mt-0.5 shrink-0" />
                {m.updating}
              </p>
            )}
          </div>
        </CardContent>
      </form>
    </Card>
  );
}

/** The card's shape while the name loads: heading, help text, field, button. */
function NameSkeleton() {
  return (
    <Card role="status">
      <span className="sr-only">{m.loading}</span>
      <CardHeader>
        <Skeleton className="h-6 w-48" />
        <Skeleton className="h-4 w-full" />
        <Skeleton className="h-4 w-2/3" />
      </CardHeader>
      <CardContent className="grid gap-4">
        <Skeleton className="h-10 w-full" />
        <Skeleton className="h-10 w-28 max-sm:w-full" />
      </CardContent>
    </Card>
  );
}
