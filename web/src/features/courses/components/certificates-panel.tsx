import { useInfiniteQuery } from '@tanstack/react-query';
import { ExternalLink, ShieldX } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { REVOCATION_REASON_MAX, revokeCertificateBody, type CourseCertificate } from '@contracts/certificates.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { LoadFailedInline } from '@/components/ui/load-failed.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { RefusalAlert } from '@/components/ui/refusal-alert.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { errorMessage } from '@/lib/error-message.ts';
import { formatDay } from '@/lib/format-date.ts';
import { courseMessages } from '../course-messages.ts';
import { courseCertificatesQueryOptions } from '../api/course-queries.ts';
import { useRevokeCertificate } from '../api/use-course-mutations.ts';

/**
 * The certificates the course's learners earned (one each, issued when they complete it): the learner, the day, the
 * status and its public page, newest first, 'Load more' for the next page; a valid one can be revoked with a reason, which its page then shows to anyone.
 */
export function CertificatesPanel({ courseId, courseTitle }: { courseId: string; courseTitle: string }) {
  const certificates = useInfiniteQuery(courseCertificatesQueryOptions(courseId));
  const issued = certificates.data?.pages.flatMap((page) => page.items) ?? [];
  const [revoking, setRevoking] = useState<CourseCertificate | undefined>();

  return (
    <Card aria-labelledby="certificates-title" role="region">
      <CardHeader>
        <CardTitle id="certificates-title">Certificates</CardTitle>
        <CardDescription>Issued to each learner who completes the course. Anyone can check one on its public page.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5 *:min-w-0">
        {certificates.isPending ? (
          <div role="status" aria-busy="true" className="grid gap-2">
            <span className="sr-only">Loading certificates...</span>
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
          </div>
        ) : certificates.isError ? (
          <LoadFailedInline message="The certificates could not be loaded." onRetry={() => void certificates.refetch()} retrying={certificates.isFetching} />
        ) : issued.length === 0 ? (
          <p className="rounded-lg border border-dashed bg-subtle px-4 py-6 text-center text-sm text-muted-foreground">
            No certificates yet. Learners earn one when they complete the course.
          </p>
        ) : (
          <>
            <ul className="divide-y rounded-lg border" aria-label="Issued certificates">
              {issued.map((certificate) => (
                <CertificateRow key={certificate.id} certificate={certificate} onRevoke={() => setRevoking(certificate)} />
              ))}
            </ul>
            <LoadMore pages={certificates} />
          </>
        )}
      </CardContent>
      <RevokeDialog courseId={courseId} courseTitle={courseTitle} certificate={revoking} onClose={() => setRevoking(undefined)} />
    </Card>
  );
}

function CertificateRow({ certificate: c, onRevoke }: { certificate: CourseCertificate; onRevoke: () => void }) {
  const revoked = c.status === 'revoked';
  return (
    <li className="flex flex-wrap items-center gap-x-4 gap-y-2 p-3" data-testid="certificate-row">
      <span className="grid min-w-0 flex-1 basis-56 gap-0.5">
        <span className="flex flex-wrap items-center gap-2">
          <span className="min-w-0 text-sm font-medium [overflow-wrap:anywhere]">{c.learnerEmail}</span>
          {revoked ? (
            <Badge className="border-transparent bg-red-100 text-red-900">Revoked</Badge>
          ) : (
            <Badge className="border-transparent bg-emerald-100 text-emerald-900">Valid</Badge>
          )}
        </span>
        <span className="text-xs text-muted-foreground">
          Issued {formatDay(c.issuedAt)}
          {revoked && c.revokedAt ? ` · Revoked ${formatDay(c.revokedAt)}` : ''}
        </span>
        {revoked && c.revocationReason && <span className="text-xs text-muted-foreground [overflow-wrap:anywhere]">Reason: {c.revocationReason}</span>}
      </span>
      <span className="flex flex-wrap gap-2">
        <Button asChild variant="outline" size="sm">
          <a href={c.verifyUrl} target="_blank" rel="noopener" aria-label={`View ${c.learnerEmail}'s certificate`}>
            <ExternalLink aria-hidden="true" />
            View
          </a>
        </Button>
        {!revoked && (
          <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" aria-label={`Revoke ${c.learnerEmail}'s certificate`} onClick={onRevoke}>
            <ShieldX aria-hidden="true" />
            Revoke
          </Button>
        )}
      </span>
    </li>
  );
}

/** 'Revoke certificate': the reason is required (it goes on the certificate's public page); the server's refusal stays in the dialog. */
function RevokeDialog({
  courseId,
  courseTitle,
  certificate,
  onClose,
}: {
  courseId: string;
  courseTitle: string;
  certificate: CourseCertificate | undefined;
  onClose: () => void;
}) {
  const revoke = useRevokeCertificate(courseId);
  return (
    <Dialog open={certificate !== undefined} onOpenChange={(open) => !open && !revoke.isPending && onClose()}>
      <DialogContent className="sm:max-w-md">
        <DialogHeader>
          <DialogTitle>Revoke certificate</DialogTitle>
          <DialogDescription>
            {certificate &&
              `${certificate.learnerEmail}'s certificate of “${courseTitle}” will show as revoked, with your reason, to anyone who checks it. This cannot be undone.`}
          </DialogDescription>
        </DialogHeader>
        {certificate && <RevokeForm key={certificate.id} certificate={certificate} revoke={revoke} onDone={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

function RevokeForm({ certificate, revoke, onDone }: { certificate: CourseCertificate; revoke: ReturnType<typeof useRevokeCertificate>; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string>();
  const [refusal, setRefusal] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = revokeCertificateBody.safeParse({ reason });
    if (!parsed.success) {
      setError(reason.trim() === '' ? 'Say why the certificate is revoked.' : `At most ${REVOCATION_REASON_MAX} characters.`);
      return;
    }
    setError(undefined);
    setRefusal(undefined);
    revoke.mutate({ certificateId: certificate.id, reason: parsed.data.reason }, { onSuccess: onDone, onError: (failure) => setRefusal(errorMessage(failure, courseMessages.failed)) });
  };

  return (
    <form noValidate aria-label="Revoke the certificate" className="grid gap-5" onSubmit={submit}>
      <FormField label="Reason" error={error} description={`Shown on the certificate’s public page. At most ${REVOCATION_REASON_MAX} characters.`} required>
        <Textarea
          rows={4}
          required
          maxLength={REVOCATION_REASON_MAX}
          value={reason}
          placeholder="The course was completed with someone else's account."
          onChange={(event) => setReason(event.target.value)}
        />
      </FormField>

      {refusal && (
        <RefusalAlert>{refusal}</RefusalAlert>
      )}

      <DialogFooter>
        <Button variant="outline" disabled={revoke.isPending} onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" variant="destructive" loading={revoke.isPending}>
          Revoke certificate
        </Button>
      </DialogFooter>
    </form>
  );
}
