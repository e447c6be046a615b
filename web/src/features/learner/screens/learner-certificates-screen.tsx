import { useQuery } from '@tanstack/react-query';
import { Award, BriefcaseBusiness, Copy, Download, ExternalLink } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { LearnerCertificate } from '@contracts/certificates.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { formatDay } from '@/lib/format-date.ts';
import { certificatePrintPath } from '@/lib/paths.ts';
import { learnerCertificatesQueryOptions } from '../api/learning-queries.ts';

/** What the screen says where a test may look for it. */
export const certificateMessages = {
  copied: 'Link copied',
  copyFailed: 'The link could not be copied. Open the certificate with “View” and copy its address from there.',
} as const;

/**
 * /dashboard/learner/certificates: one card per course the learner completed: its title and creator, the day it was
 * issued, and what to do with it: a PDF to keep (the printable copy, saved from the browser's print dialog), its public
 * page (where anyone checks it), LinkedIn's "Add licence or certification" form filled in, and the page's link to share.
 * A revoked certificate says so and is no longer offered as a PDF or for LinkedIn.
 */
export function LearnerCertificatesScreen() {
  const certificates = useQuery(learnerCertificatesQueryOptions());

  return (
    <div className="grid gap-6 *:min-w-0">
      <PageHeader title="Certificates" description="Proof of the courses you completed." />
      {certificates.isPending ? (
        <div role="status" className="grid gap-4 md:grid-cols-2">
          <span className="sr-only">Loading your certificates...</span>
          <Skeleton className="h-48 rounded-xl" />
          <Skeleton className="h-48 rounded-xl" />
        </div>
      ) : certificates.isError ? (
        <LoadFailed message="Your certificates could not be loaded" onRetry={() => void certificates.refetch()} retrying={certificates.isRefetching} />
      ) : certificates.data.items.length === 0 ? (
        <EmptyState icon={Award} title="No certificates yet">
          Finish a course to earn its certificate: each one will appear here, ready to download and share.
        </EmptyState>
      ) : (
        <ul className="grid gap-4 md:grid-cols-2" aria-label="Your certificates">
          {certificates.data.items.map((certificate) => (
            <li key={certificate.id} className="grid">
              <CertificateCard certificate={certificate} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

async function copyLink(url: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    toast.success(certificateMessages.copied, { description: url });
  } catch {
    // No clipboard (an insecure page, a refused permission).
    toast.error('Error', { description: certificateMessages.copyFailed });
  }
}

function CertificateCard({ certificate: c }: { certificate: LearnerCertificate }) {
  const revoked = c.status === 'revoked';
  return (
    <Card className="flex min-w-0 flex-col gap-4 p-5" data-testid="certificate-card">
      <div className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className={
            revoked
              ? 'grid size-11 shrink-0 place-items-center rounded-full bg-muted text-muted-foreground'
              : 'grid size-11 shrink-0 place-items-center rounded-full bg-amber-100 text-amber-800 ring-4 ring-amber-50'
          }
        >
          <Award className="size-5" />
        </span>
        <div className="grid min-w-0 flex-1 gap-0.5">
          <h2 className="font-semibold leading-snug [overflow-wrap:anywhere]">{c.courseTitle}</h2>
          <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">From {c.creatorName}</p>
          <p className="text-xs text-muted-foreground">
            Issued <time dateTime={c.issuedAt}>{formatDay(c.issuedAt)}</time>
          </p>
        </div>
        {revoked && <Badge className="border-transparent bg-red-100 text-red-900">Revoked</Badge>}
      </div>
      {revoked && <p className="text-sm text-muted-foreground">The creator revoked this certificate: its page says so to anyone who checks it.</p>}
      <div className="mt-auto grid grid-cols-2 gap-2 border-t pt-4">
        {!revoked && (
          <Button asChild size="sm" className="h-9 max-sm:h-10">
            <Link to={certificatePrintPath(c.id)} target="_blank" rel="noopener" aria-label={`Download PDF of ${c.courseTitle}`}>
              <Download aria-hidden="true" />
              Download PDF
            </Link>
          </Button>
        )}
        <Button asChild variant="outline" size="sm" className="h-9 max-sm:h-10">
          <a href={c.verifyUrl} target="_blank" rel="noopener" aria-label={`View the certificate of ${c.courseTitle}`}>
            <ExternalLink aria-hidden="true" />
            View
          </a>
        </Button>
        {!revoked && (
          <Button asChild variant="outline" size="sm" className="h-9 max-sm:h-10">
            <a href={c.linkedInUrl} target="_blank" rel="noopener noreferrer" aria-label={`Add to LinkedIn: ${c.courseTitle}`}>
              <BriefcaseBusiness aria-hidden="true" />
              Add to LinkedIn
            </a>
          </Button>
        )}
        <Button variant="outline" size="sm" className="h-9 max-sm:h-10" aria-label={`Copy link to the certificate of ${c.courseTitle}`} onClick={() => void copyLink(c.verifyUrl)}>
          <Copy aria-hidden="true" />
          Copy link
        </Button>
      </div>
    </Card>
  );
}
