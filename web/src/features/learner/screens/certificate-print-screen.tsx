import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Award, ExternalLink, Printer } from 'lucide-react';
import { useEffect, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { LearnerCertificate } from '@contracts/certificates.ts';
import { Button } from '@/components/ui/button.tsx';
import { EmptyState } from '@/components/ui/empty-state.tsx';
import { LoadFailed } from '@/components/ui/load-failed.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { paths } from '@/lib/paths.ts';
import { useProfile } from '@/lib/session-hooks.ts';
import { learnerCertificateQueryOptions } from '../api/learning-queries.ts';
import { CertificateDocument } from '../components/certificate-document.tsx';

/**
 * The printed page is the sheet alone, A4 landscape without margins (the sheet draws its own), its colours kept. The
 * app's full-height frame is let go so that nothing spills onto a second page.
 */
const PRINT_CSS = `
@page { size: A4 landscape; margin: 0; }
@media print {
  html, body, #root { min-height: 0 !important; height: auto !important; background: #fff !important; }
  [data-certificate-sheet] { width: 297mm !important; height: 210mm !important; aspect-ratio: auto !important; }
}`;

/** How long the page waits for its layout to settle before opening the print dialog. */
const PRINT_DELAY_MS = 300;

/**
 * `/certificates/:id/print`: the learner's own certificate as a printable sheet, outside the dashboard's frame. The
 * browser's print dialog opens by itself once the sheet is drawn ('Save as PDF' keeps it as a PDF, named after the
 * tab's title); 'Download PDF' opens it again. It is awarded to the learner's name on certificates as the certificate
 * carries it, else to their email. A revoked certificate, or one that is not the learner's, is not printed.
 */
export function CertificatePrintScreen() {
  const { id = '' } = useParams();
  const certificates = useQuery(learnerCertificateQueryOptions(id));
  const profile = useProfile();
  const certificate = certificates.data ?? undefined;
  // The name the certificate carries, else (issued before the learner gave a name) their email.
  const learner = certificate?.learnerName ?? profile.data?.email;
  const printable = certificate?.status === 'valid' && learner !== undefined;

  useEffect(() => {
    if (!certificate) return;
    const previous = document.title;
    document.title = `Certificate of Completion - ${certificate.courseTitle}`;
    return () => {
      document.title = previous;
    };
  }, [certificate]);

  useEffect(() => {
    if (!printable) return;
    const timer = setTimeout(() => window.print(), PRINT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [printable]);

  if (certificates.isPending || profile.isPending) {
    return (
      <PrintFrame>
        <div role="status">
          <span className="sr-only">Preparing your certificate...</span>
          <Skeleton className="aspect-[297/210] w-full rounded-sm" />
        </div>
      </PrintFrame>
    );
  }
  if (certificates.isError || profile.isError) {
    const retry = () => void (certificates.isError ? certificates.refetch() : profile.refetch());
    return (
      <PrintFrame>
        <LoadFailed message="Your certificate could not be loaded" onRetry={retry} retrying={certificates.isRefetching || profile.isRefetching} />
      </PrintFrame>
    );
  }
  if (!certificate) {
    return (
      <PrintFrame>
        <EmptyState icon={Award} title="Certificate not found" className="bg-background">
          None of your certificates has this address. Your certificates are listed under Certificates.
        </EmptyState>
      </PrintFrame>
    );
  }
  if (certificate.status === 'revoked') {
    return (
      <PrintFrame>
        <EmptyState
          icon={Award}
          title="This certificate was revoked"
          className="bg-background"
          action={
            <Button asChild variant="outline">
              <a href={certificate.verifyUrl} target="_blank" rel="noopener">
                <ExternalLink aria-hidden="true" />
                View its page
              </a>
            </Button>
          }
        >
          The creator of “{certificate.courseTitle}” revoked it, so it can no longer be downloaded.
        </EmptyState>
      </PrintFrame>
    );
  }
  return <PrintableCertificate certificate={certificate} learner={learner ?? ''} />;
}

function PrintableCertificate({ certificate, learner }: { certificate: LearnerCertificate; learner: string }) {
  return (
    <PrintFrame
      action={
        <Button onClick={() => window.print()}>
          <Printer aria-hidden="true" />
          Download PDF
        </Button>
      }
    >
      <style>{PRINT_CSS}</style>
      <p className="mb-4 text-sm text-muted-foreground print:hidden">
        In the print dialog, choose <strong className="font-medium text-foreground">Save as PDF</strong> as the destination to keep your certificate as a PDF.
      </p>
      <CertificateDocument
        id={certificate.id}
        learner={learner}
        courseTitle={certificate.courseTitle}
        creatorName={certificate.creatorName}
        issuedAt={certificate.issuedAt}
        verifyUrl={certificate.verifyUrl}
        className="rounded-sm shadow-xl ring-1 ring-black/5 print:rounded-none print:shadow-none print:ring-0"
      />
    </PrintFrame>
  );
}

/** The page around the sheet on screen: back to the certificates, the action, and a grey desk the sheet lies on. */
function PrintFrame({ children, action }: { children: ReactNode; action?: ReactNode }) {
  return (
    <div className="min-h-dvh bg-muted print:min-h-0 print:bg-white">
      <header className="border-b bg-background print:hidden">
        <div className="mx-auto flex h-14 max-w-6xl items-center justify-between gap-3 px-4 sm:px-6">
          <Button asChild variant="ghost" size="sm" className="-ml-2 h-9">
            <Link to={paths.learner.certificates}>
              <ArrowLeft aria-hidden="true" />
              My certificates
            </Link>
          </Button>
          {action}
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl px-4 py-6 sm:px-6 sm:py-10 print:max-w-none print:p-0">
        {children}
      </main>
    </div>
  );
}
