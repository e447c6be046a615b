import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Award, BriefcaseBusiness, Copy, Download, ExternalLink, UserPen } from 'lucide-react';
import { Link } from 'react-router-dom';
import type { LearnerCertificate } from '@contracts/certificates.ts';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { LoadMore } from '@/components/ui/load-more.tsx';
import { PageHeader } from '@/components/ui/page-header.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { toast } from '@/components/ui/toaster.tsx';
import { formatDay } from '@/lib/format-date.ts';
import { certificatePrintPath, paths } from '@/lib/paths.ts';
import { learnerCertificatesQueryOptions, learnerProfileQueryOptions } from '../api/learning-queries.ts';

/** What the screen says where a test may look for it. */
export const certificateMessages = {
  copied: 'Link copied',
  copyFailed: 'The link could not be copied. Open the certificate with “View” and copy its address from there.',
  addName: {
    title: 'Add your name to your certificates',
    text: 'They show your email address, partly hidden, until you add the name to print on them.',
    action: 'Add your name',
  },
  awardedTo: (name: string) => `Awarded to ${name}`,
} as const;

/**
 * /dashboard/learner/certificates: one card per course the learner completed: its title and creator, the day it was
 * issued, and what to do with it: a PDF to keep (the printable copy, saved from the browser's print dialog), its public
 * page (where anyone checks it), LinkedIn's "Add licence or certification" form filled in, and the page's link to share.
 * A revoked certificate says so and is no longer offered as a PDF or for LinkedIn. Until the learner gives the name to
 * print on them (their profile), a notice above the list offers to add it; it blocks nothing, and stays away while
 * the profile loads or cannot be loaded. Newest first, a page at a time: 'Load more' for the next.
 */
export function LearnerCertificatesScreen() {
  const certificates = useInfiniteQuery(learnerCertificatesQueryOptions());
  const items = certificates.data?.pages.flatMap((page) => page.items) ?? [];
  const profile = useQuery(learnerProfileQueryOptions());

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
      ) : items.length === 0 ? (
        <EmptyState icon={Award} title="No certificates yet">
          Finish a course to earn its certificate: each one will appear here, ready to download and share.
        </EmptyState>
      ) : (
        <>
          {profile.data?.certificateName === '' && <AddNameNotice />}
          <ul className="grid gap-4 md:grid-cols-2" aria-label="Your certificates">
            {items.map((certificate) => (
              <li key={certificate.id} className="grid">
                <CertificateCard certificate={certificate} />
              </li>
            ))}
          </ul>
          <LoadMore pages={certificates} />
        </>
      )}
    </div>
  );
}

/** Above the list while the certificates name the learner by their masked email: where to give the name instead. */
function AddNameNotice() {
  const m = certificateMessages.addName;
  return (
    <section
      aria-labelledby="add-name-title"
      className="flex flex-wrap items-start gap-x-3 gap-y-2 rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-950"
    >
      <UserPen aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-sky-800" />
      <div className="grid min-w-0 flex-1 basis-56 gap-0.5">
        <h2 id="add-name-title" className="font-semibold">
          {m.title}
        </h2>
        <p>{m.text}</p>
      </div>
      <Link
        to={paths.learner.profile}
        className="ml-6 rounded-sm px-1 py-0.5 font-medium whitespace-nowrap underline underline-offset-4 outline-none hover:no-underline focus-visible:ring-2 focus-visible:ring-ring sm:ml-0 sm:self-center"
      >
        {m.action}
      </Link>
    </section>
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
          {c.learnerName && <p className="text-sm text-muted-foreground [overflow-wrap:anywhere]">{certificateMessages.awardedTo(c.learnerName)}</p>}
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
