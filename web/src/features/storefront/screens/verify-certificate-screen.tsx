import { useQuery } from '@tanstack/react-query';
import { ChevronDown, RotateCw, SearchX, ShieldAlert, ShieldCheck, ShieldX } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { BrandingView } from '@contracts/branding.ts';
import type { CertificateView, PublicCertificate, VerifyCertificateResult } from '@contracts/certificates.ts';
import { SchoolMark } from '@/components/school-mark.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { FormField } from '@/components/ui/form-field.tsx';
import { RefusalAlert } from '@/components/ui/refusal-alert.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Textarea } from '@/components/ui/textarea.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { errorMessage } from '@/lib/error-message.ts';
import { formatDay } from '@/lib/format-date.ts';
import { paths, publicCoursePath, verifyPath } from '@/lib/paths.ts';
import { cn } from '@/lib/utils.ts';
import { publicCertificateQueryOptions, useVerifyCredential } from '../api/certificate-queries.ts';
import { publicCourseQueryOptions } from '../api/storefront-queries.ts';
import { StorefrontLayout, StorefrontMessage } from '../components/storefront-layout.tsx';
import { useStorefrontSite } from '../storefront-site.tsx';
import { usePageMeta } from '../use-page-meta.ts';

/** The longest credential the API takes (the contract's limit). */
const CREDENTIAL_MAX = 20_000;

type Verdict = 'valid' | 'revoked' | 'unverified';

/** What a check comes to: revoked (the platform's record says so, whatever the proof), else valid only when the proof holds. */
const verdictOf = ({ status, verified }: { status: string; verified: boolean }): Verdict =>
  status === 'revoked' ? 'revoked' : verified && status === 'valid' ? 'valid' : 'unverified';

const verdictTitles: Record<Verdict, string> = { valid: 'Valid', revoked: 'Revoked', unverified: 'Could not be verified' };

/**
 * `/verify/:id`: a certificate's public page, for anyone (an employer, a client) with no sign-in: the verdict first
 * (valid, revoked with when and why, or not verified), then what the certificate says, and a form to check another
 * credential pasted as issued (a VC-JWT). A branded creator's certificate (issue 32) is framed by their school: its
 * mark (linking to the course) and colour, and its mark on the certificate itself. On a creator's custom domain, only
 * their courses' certificates: the certificate's course (its `courseUrl`) says whose it is.
 */
export function VerifyCertificateScreen() {
  const { id = '' } = useParams();
  const site = useStorefrontSite();
  const query = useQuery(publicCertificateQueryOptions(id));
  const courseId = site ? /\/c\/([^/?#]+)/.exec(query.data?.certificate.courseUrl ?? '')?.[1] : undefined;
  const course = useQuery({ ...publicCourseQueryOptions(decodeURIComponent(courseId ?? '')), enabled: courseId !== undefined });
  // On a custom domain the page waits for the course, and a certificate of someone else's course (or of one no
  // longer published, whose creator cannot be told) is not found there.
  const elsewhere = site !== undefined && query.data !== undefined && (courseId === undefined || course.isError || (course.data !== undefined && course.data.creatorSlug !== site.creatorSlug));
  const waiting = site !== undefined && query.data !== undefined && !elsewhere && course.data === undefined;
  const certificate = elsewhere || waiting ? { ...query, data: undefined, isPending: waiting } : query;
  const notFound = elsewhere || (certificate.error instanceof ApiError && certificate.error.code === 'NOT_FOUND');
  usePageMeta(
    certificate.data
      ? { title: `Certificate: ${certificate.data.certificate.courseTitle}`, description: describe(certificate.data), type: 'website' }
      : notFound
        ? { title: 'Certificate not found', description: 'There is no certificate at this address.', type: 'website' }
        : undefined,
  );

  return (
    <StorefrontLayout branding={certificate.data?.branding} home={site ? paths.home : certificate.data ? pathOf(certificate.data.certificate.courseUrl) : undefined}>
      {certificate.isPending ? (
        <VerifySkeleton />
      ) : notFound ? (
        <>
          <StorefrontMessage
            icon={<SearchX aria-hidden="true" />}
            title="Certificate not found"
            action={
              <Button asChild variant="outline">
                <Link to={paths.home}>Go to the home page</Link>
              </Button>
            }
          >
            No certificate has this address. Check the link you were given, or paste the credential below to check it.
          </StorefrontMessage>
          {!site && (
            <div className="mx-auto max-w-3xl px-4 pb-16 sm:px-6">
              <VerifyAnother />
            </div>
          )}
        </>
      ) : certificate.isError || !certificate.data ? (
        <StorefrontMessage
          icon={<RotateCw aria-hidden="true" />}
          title="This certificate could not be checked"
          action={
            <Button variant="outline" loading={certificate.isFetching} onClick={() => void certificate.refetch()}>
              Try again
            </Button>
          }
        >
          Check your connection and try again.
        </StorefrontMessage>
      ) : (
        // On a custom domain its course is the one at /c/ there, and the form checking another credential (a POST,
        // which the domain's edge does not pass) is on the platform's own page only.
        <CertificatePage data={certificate.data} courseHref={courseId ? publicCoursePath(decodeURIComponent(courseId)) : undefined} verifyAnother={!site} />
      )}
    </StorefrontLayout>
  );
}

/** The course page's path in this app, from the certificate's course URL (the school's mark links there). */
const pathOf = (url: string): string => {
  try {
    return new URL(url).pathname;
  } catch {
    return paths.home;
  }
};

/** The page's description for previews: the verdict and what was completed. */
function describe({ status, verified, certificate: c }: PublicCertificate): string {
  const verdict = verdictOf({ status, verified });
  const lead = verdict === 'valid' ? 'A valid certificate' : verdict === 'revoked' ? 'A revoked certificate' : 'A certificate that could not be verified';
  return `${lead} of completion of “${c.courseTitle}” from ${c.creatorName}, issued by ${c.issuerName} on ${formatDay(c.issuedAt)}.`;
}

function CertificatePage({ data, courseHref, verifyAnother }: { data: PublicCertificate; courseHref: string | undefined; verifyAnother: boolean }) {
  const c = data.certificate;
  return (
    <div className="relative isolate">
      <div aria-hidden="true" className="absolute inset-x-0 top-0 -z-10 h-72 bg-linear-to-b from-muted to-background" />
      <div className="mx-auto grid max-w-3xl gap-6 px-4 pt-8 pb-16 *:min-w-0 sm:px-6 sm:pt-14">
        <VerdictBanner verdict={verdictOf(data)} certificate={c} level={1} />
        <CertificateDetails certificate={c} branding={data.branding} courseHref={courseHref ?? c.courseUrl} />
        {verifyAnother && <VerifyAnother />}
      </div>
    </div>
  );
}

const verdictLooks: Record<Verdict, { box: string; icon: string; title: string; Icon: typeof ShieldCheck }> = {
  valid: { box: 'border-emerald-200 bg-emerald-50', icon: 'bg-emerald-600 text-white', title: 'text-emerald-950', Icon: ShieldCheck },
  revoked: { box: 'border-red-200 bg-red-50', icon: 'bg-red-600 text-white', title: 'text-red-950', Icon: ShieldX },
  unverified: { box: 'border-red-200 bg-red-50', icon: 'bg-red-600 text-white', title: 'text-red-950', Icon: ShieldAlert },
};

/** The verdict, in colour and in words: what the check found and what it means for the reader. */
function VerdictBanner({ verdict, certificate: c, level, compact = false }: { verdict: Verdict; certificate: CertificateView | null; level: 1 | 3; compact?: boolean }) {
  const look = verdictLooks[verdict];
  const Heading = `h${level}` as const;
  return (
    <section
      aria-label="Verification result"
      data-verdict={verdict}
      className={cn('flex items-start gap-4 rounded-xl border', compact ? 'p-4' : 'p-5 shadow-sm sm:p-6', look.box)}
    >
      <span aria-hidden="true" className={cn('grid shrink-0 place-items-center rounded-full', compact ? 'size-10' : 'size-12 sm:size-14', look.icon)}>
        <look.Icon className={compact ? 'size-5' : 'size-6 sm:size-7'} />
      </span>
      <div className="grid min-w-0 gap-1">
        {!compact && <p className="text-xs font-medium tracking-wider text-muted-foreground uppercase">Certificate verification</p>}
        <Heading className={cn('font-bold tracking-tight', compact ? 'text-lg' : 'text-2xl sm:text-3xl', look.title)}>{verdictTitles[verdict]}</Heading>
        <div className="grid gap-2 text-sm text-foreground/80">
          {verdict === 'valid' ? (
            <p>{c ? `This certificate is genuine: it was issued by ${c.issuerName} and its signature checks out.` : 'The credential is genuine and its signature checks out.'}</p>
          ) : verdict === 'revoked' ? (
            <>
              <p>
                {c?.revokedAt
                  ? `This certificate was revoked on ${formatDay(c.revokedAt)}. It no longer stands as proof of completion.`
                  : 'This certificate was revoked. It no longer stands as proof of completion.'}
              </p>
              {c?.revocationReason && (
                <p className="rounded-lg border border-red-200 bg-background/70 px-3 py-2 [overflow-wrap:anywhere]">
                  <span className="font-medium text-foreground">Reason: </span>
                  {c.revocationReason}
                </p>
              )}
            </>
          ) : (
            <p>Its signature or contents do not check out against the platform’s keys. Do not rely on what it says.</p>
          )}
        </div>
      </div>
    </section>
  );
}

/** What the certificate says: who, which course, from whom, issued by whom and when, and its id; the school's mark on top when branded. */
function CertificateDetails({ certificate: c, branding, courseHref }: { certificate: CertificateView; branding: BrandingView | null; courseHref: string }) {
  return (
    <Card aria-labelledby="course-title" role="region" className="overflow-hidden">
      {branding && <div aria-hidden="true" data-testid="school-band" className="h-1.5 bg-primary" />}
      <div className="grid justify-items-center gap-1 border-b bg-subtle px-5 py-8 text-center sm:px-10 sm:py-10">
        {branding && (
          <SchoolMark
            name={branding.schoolName}
            logoUrl={branding.logoUrl}
            primaryColor={branding.primaryColor}
            onPrimaryColor={branding.onPrimaryColor}
            className="mb-4 max-w-full justify-center"
          />
        )}
        <p className="text-xs font-medium tracking-[0.2em] text-muted-foreground uppercase">Certificate of Completion</p>
        <p className="mt-4 text-sm text-muted-foreground">Awarded to</p>
        <p className="max-w-full text-xl font-semibold [overflow-wrap:anywhere] sm:text-2xl" data-testid="learner">
          {c.learner}
        </p>
        <p className="mt-4 text-sm text-muted-foreground">for completing</p>
        <h2 id="course-title" className="max-w-full text-2xl font-bold tracking-tight text-balance [overflow-wrap:anywhere] sm:text-3xl">
          <a href={courseHref} className="rounded-sm underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring">
            {c.courseTitle}
          </a>
        </h2>
        <p className="text-base text-muted-foreground [overflow-wrap:anywhere]">From {c.creatorName}</p>
      </div>
      <dl className="grid gap-x-6 gap-y-4 p-5 text-sm sm:grid-cols-3 sm:p-6">
        <Detail term="Issued by">{c.issuerName}</Detail>
        <Detail term="Issued">
          <time dateTime={c.issuedAt}>{formatDay(c.issuedAt)}</time>
        </Detail>
        <Detail term="Certificate ID">
          <span className="font-mono text-xs [overflow-wrap:anywhere]">{c.id}</span>
        </Detail>
      </dl>
    </Card>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 content-start gap-0.5">
      <dt className="text-xs font-medium text-muted-foreground">{term}</dt>
      <dd className="font-medium [overflow-wrap:anywhere]">{children}</dd>
    </div>
  );
}

/**
 * 'Verify another credential' (folded): a third party pastes a credential as it was issued (a VC-JWT) and sees what
 * the platform's check finds: the verdict, the problems it found, and what the credential says when it can be read.
 */
function VerifyAnother() {
  const id = useId();
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby={`${id}-title`} className="rounded-xl border bg-card shadow-sm">
      <h2 id={`${id}-title`}>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          className="flex w-full items-center justify-between gap-4 rounded-xl p-4 text-left outline-none focus-visible:ring-2 focus-visible:ring-ring sm:p-5"
          onClick={() => setOpen((was) => !was)}
        >
          <span className="grid gap-0.5">
            <span className="font-semibold">Verify another credential</span>
            <span className="text-sm font-normal text-muted-foreground">Paste a certificate’s credential to check its signature and status.</span>
          </span>
          <ChevronDown aria-hidden="true" className={cn('size-5 shrink-0 text-muted-foreground transition-transform', open && 'rotate-180')} />
        </button>
      </h2>
      {open && (
        <div id={`${id}-panel`} className="border-t p-4 sm:p-5">
          <VerifyForm />
        </div>
      )}
    </section>
  );
}

function VerifyForm() {
  const verify = useVerifyCredential();
  const [credential, setCredential] = useState('');
  const [error, setError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const typed = credential.trim();
    if (typed === '') {
      setError('Paste the credential to check.');
      return;
    }
    if (typed.length > CREDENTIAL_MAX) {
      setError(`A credential is at most ${CREDENTIAL_MAX.toLocaleString('en-GB')} characters: this is not one.`);
      return;
    }
    setError(undefined);
    verify.mutate(typed);
  };

  return (
    <div className="grid gap-5 *:min-w-0">
      <form noValidate aria-label="Verify a credential" className="grid gap-4" onSubmit={submit}>
        <FormField label="Credential" error={error} description="The credential as issued: a long text in three parts separated by dots (a VC-JWT).">
          <Textarea
            rows={5}
            value={credential}
            spellCheck={false}
            autoComplete="off"
            autoCapitalize="off"
            placeholder="eyJhbGciOi..."
            className="font-mono text-xs break-all sm:text-xs"
            onChange={(event) => setCredential(event.target.value)}
          />
        </FormField>
        <Button type="submit" className="w-full sm:w-fit" loading={verify.isPending}>
          {!verify.isPending && <ShieldCheck aria-hidden="true" />}
          Verify
        </Button>
      </form>

      <div aria-live="polite" className="grid empty:hidden">
        {verify.isError ? (
          <RefusalAlert>{errorMessage(verify.error, 'The credential could not be checked. Try again.')}</RefusalAlert>
        ) : verify.data ? (
          <VerifyResult result={verify.data} />
        ) : null}
      </div>
    </div>
  );
}

function VerifyResult({ result }: { result: VerifyCertificateResult }) {
  const c = result.certificate;
  return (
    <div className="grid gap-3">
      <VerdictBanner verdict={verdictOf(result)} certificate={c} level={3} compact />
      {result.errors.length > 0 && (
        <div className="grid gap-1.5 text-sm">
          <p className="font-medium">Problems found</p>
          <ul aria-label="Problems found" className="grid list-disc gap-1 pl-5 text-muted-foreground">
            {result.errors.map((problem) => (
              <li key={problem} className="[overflow-wrap:anywhere]">
                {problem}
              </li>
            ))}
          </ul>
        </div>
      )}
      {c && (
        <dl className="grid gap-x-6 gap-y-3 rounded-lg border p-4 text-sm sm:grid-cols-2">
          <Detail term="Awarded to">{c.learner}</Detail>
          <Detail term="Course">{c.courseTitle}</Detail>
          <Detail term="From">{c.creatorName}</Detail>
          <Detail term="Issued">
            {formatDay(c.issuedAt)} by {c.issuerName}
          </Detail>
        </dl>
      )}
      {c && (
        <Link to={verifyPath(c.id)} className="w-fit rounded-sm text-sm font-medium underline underline-offset-4 outline-none hover:text-foreground/80 focus-visible:ring-2 focus-visible:ring-ring">
          Open this certificate’s page
        </Link>
      )}
    </div>
  );
}

function VerifySkeleton() {
  return (
    <div role="status" aria-busy="true" className="mx-auto grid max-w-3xl gap-6 px-4 pt-8 pb-16 sm:px-6 sm:pt-14">
      <span className="sr-only">Checking the certificate...</span>
      <Skeleton className="h-28 rounded-xl" />
      <Skeleton className="h-80 rounded-xl" />
    </div>
  );
}
