import { useQuery } from '@tanstack/react-query';
import { BookOpen, CircleCheck, RotateCw, SearchX } from 'lucide-react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import type { PublicBundle } from '@contracts/bundles.ts';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { paths } from '@/lib/paths.ts';
import { PURCHASE_PARAM, publicBundleQueryOptions } from '../api/storefront-queries.ts';
import { BundleBuyBox } from '../components/bundle-buy-box.tsx';
import { PURCHASE_NEXT, PURCHASE_RECEIVED } from '../components/buy-box.tsx';
import { CreatorAvatar } from '../components/creator-avatar.tsx';
import { StorefrontLayout, StorefrontMessage } from '../components/storefront-layout.tsx';
import { SiteLink, useStorefrontLinks, useStorefrontSite } from '../storefront-site.tsx';
import { usePageMeta } from '../use-page-meta.ts';

/**
 * `/b/:bundleId`: a bundle's page (issue 34), as a course's: its title, description and creator, the courses it holds
 * (each linking to its own page), its price against their separate prices, and 'Buy now' (BundleBuyBox), in the
 * creator's branding while their plan has it. For anyone, no sign-in. On a creator's custom domain only their bundles:
 * another creator's is not found there.
 */
export function BundlePageScreen() {
  const { bundleId = '' } = useParams();
  const [params] = useSearchParams();
  const site = useStorefrontSite();
  const links = useStorefrontLinks();
  const query = useQuery(publicBundleQueryOptions(bundleId));
  const elsewhere = site !== undefined && query.data !== undefined && query.data.creatorSlug !== site.creatorSlug;
  const bundle = elsewhere ? { ...query, data: undefined } : query;
  const notFound = elsewhere || (bundle.error instanceof ApiError && bundle.error.code === 'NOT_FOUND');
  usePageMeta(
    bundle.data
      ? { title: bundle.data.title, description: bundle.data.description || `${bundle.data.courses.length} courses by ${bundle.data.creatorName}, together.`, type: 'product' }
      : notFound
        ? { title: 'Bundle not found', description: 'This bundle is not available.', type: 'website' }
        : undefined,
  );

  return (
    <StorefrontLayout branding={bundle.data?.branding} home={bundle.data?.creatorSlug ? links.creator(bundle.data.creatorSlug) : undefined}>
      {bundle.isPending ? (
        <BundleSkeleton />
      ) : notFound ? (
        <StorefrontMessage
          icon={<SearchX aria-hidden="true" />}
          title="This bundle isn't available"
          action={
            <Button asChild variant="outline">
              <Link to={paths.home}>Go to the home page</Link>
            </Button>
          }
        >
          Its creator may have taken it off sale, or the link is not quite right.
        </StorefrontMessage>
      ) : bundle.isError || !bundle.data ? (
        <StorefrontMessage
          icon={<RotateCw aria-hidden="true" />}
          title="This page could not be loaded"
          action={
            <Button variant="outline" loading={bundle.isFetching} onClick={() => void bundle.refetch()}>
              Try again
            </Button>
          }
        >
          Check your connection and try again.
        </StorefrontMessage>
      ) : (
        <BundleView bundle={bundle.data} purchased={params.get(PURCHASE_PARAM) === 'success'} />
      )}
    </StorefrontLayout>
  );
}

function BundleView({ bundle, purchased }: { bundle: PublicBundle; purchased: boolean }) {
  const links = useStorefrontLinks();
  return (
    <div className="relative isolate">
      <div aria-hidden="true" className="absolute inset-x-0 top-0 -z-10 h-96 bg-linear-to-b from-muted to-background" />
      {purchased && (
        <div className="border-b border-emerald-200 bg-emerald-50">
          <div role="status" className="mx-auto flex max-w-6xl items-start gap-3 px-4 py-4 sm:px-6" data-testid="purchase-confirmation">
            <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-700" />
            <p className="text-sm text-emerald-950">
              <strong className="font-semibold">{PURCHASE_RECEIVED}</strong> {PURCHASE_NEXT}
            </p>
          </div>
        </div>
      )}
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-x-12 lg:py-14">
        <section aria-labelledby="bundle-title" className="grid content-start gap-5">
          <p className="text-sm font-medium text-muted-foreground">Course bundle · {bundle.courses.length} courses</p>
          <h1 id="bundle-title" className="text-3xl font-bold tracking-tight text-balance break-words sm:text-4xl">
            {bundle.title}
          </h1>
          {bundle.description && <p className="max-w-2xl whitespace-pre-line text-base text-muted-foreground sm:text-lg">{bundle.description}</p>}
          <div className="flex items-center gap-3">
            <CreatorAvatar name={bundle.creatorName} url={bundle.creatorAvatarUrl} className="size-11" />
            <p className="grid text-sm">
              <span className="text-muted-foreground">Created by</span>
              {bundle.creatorSlug ? (
                <SiteLink to={links.creator(bundle.creatorSlug)} className="w-fit rounded-sm font-medium underline decoration-muted-foreground/40 underline-offset-4 outline-none hover:decoration-foreground focus-visible:ring-2 focus-visible:ring-ring">
                  {bundle.creatorName}
                </SiteLink>
              ) : (
                <span className="font-medium">{bundle.creatorName}</span>
              )}
            </p>
          </div>
        </section>

        <aside aria-label="Price" className="lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <div className="lg:sticky lg:top-20">
            <BundleBuyBox bundle={bundle} purchased={purchased} />
          </div>
        </aside>

        <section aria-labelledby="courses-title" className="grid content-start gap-4 lg:col-start-1 lg:row-start-2">
          <h2 id="courses-title" className="text-xl font-semibold tracking-tight">
            The courses in this bundle
          </h2>
          <ol className="divide-y overflow-hidden rounded-xl border bg-card" data-testid="bundle-courses">
            {bundle.courses.map((course, index) => (
              <li key={course.id} className="flex items-center gap-3 px-4 py-3">
                <span aria-hidden="true" className="grid size-7 shrink-0 place-items-center rounded-full bg-muted text-xs font-medium tabular-nums text-muted-foreground">
                  {index + 1}
                </span>
                <BookOpen aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                <SiteLink
                  to={links.course(course.id, bundle.creatorSlug)}
                  className="min-w-0 flex-1 rounded-sm text-sm font-medium break-words underline decoration-muted-foreground/40 underline-offset-4 outline-none hover:decoration-foreground focus-visible:ring-2 focus-visible:ring-ring"
                >
                  {course.title}
                </SiteLink>
              </li>
            ))}
          </ol>
        </section>
      </div>
    </div>
  );
}

function BundleSkeleton() {
  return (
    <div role="status" aria-busy="true" className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-x-12 lg:py-14">
      <span className="sr-only">Loading the bundle...</span>
      <div className="grid content-start gap-4">
        <Skeleton className="h-4 w-28" />
        <Skeleton className="h-10 w-3/4" />
        <Skeleton className="h-4 w-full max-w-xl" />
        <Skeleton className="mt-6 h-48 w-full rounded-xl" />
      </div>
      <Skeleton className="h-80 w-full rounded-xl" />
    </div>
  );
}
