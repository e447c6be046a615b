import { useQuery } from '@tanstack/react-query';
import { BookOpen, CircleCheck, RotateCw, SearchX } from 'lucide-react';
import { Link, useParams, useSearchParams } from 'react-router-dom';
import type { PublicMembership } from '@contracts/memberships.ts';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { paths } from '@/lib/paths.ts';
import { PURCHASE_PARAM, publicMembershipQueryOptions } from '../api/storefront-queries.ts';
import { MembershipBuyBox } from '../components/membership-buy-box.tsx';
import { CreatorAvatar } from '../components/creator-avatar.tsx';
import { StorefrontLayout, StorefrontMessage } from '../components/storefront-layout.tsx';
import { SiteLink, useStorefrontLinks, useStorefrontSite } from '../storefront-site.tsx';
import { usePageMeta } from '../use-page-meta.ts';

/**
 * `/m/:membershipId`: a membership's page (issue 34), as a bundle's: its title, description and creator, the courses
 * it gives now (each linking to its own page; 'all' says new ones join), its price a month or a year, and 'Subscribe'
 * (MembershipBuyBox), in the creator's branding while their plan has it. For anyone, no sign-in. On a creator's
 * custom domain only their memberships: another creator's is not found there.
 */
export function MembershipPageScreen() {
  const { membershipId = '' } = useParams();
  const [params] = useSearchParams();
  const site = useStorefrontSite();
  const links = useStorefrontLinks();
  const query = useQuery(publicMembershipQueryOptions(membershipId));
  const elsewhere = site !== undefined && query.data !== undefined && query.data.creatorSlug !== site.creatorSlug;
  const membership = elsewhere ? { ...query, data: undefined } : query;
  const notFound = elsewhere || (membership.error instanceof ApiError && membership.error.code === 'NOT_FOUND');
  usePageMeta(
    membership.data
      ? { title: membership.data.title, description: membership.data.description || `A membership to courses by ${membership.data.creatorName}.`, type: 'product' }
      : notFound
        ? { title: 'Membership not found', description: 'This membership is not available.', type: 'website' }
        : undefined,
  );

  return (
    <StorefrontLayout branding={membership.data?.branding} home={membership.data?.creatorSlug ? links.creator(membership.data.creatorSlug) : undefined}>
      {membership.isPending ? (
        <MembershipSkeleton />
      ) : notFound ? (
        <StorefrontMessage
          icon={<SearchX aria-hidden="true" />}
          title="This membership isn't available"
          action={
            <Button asChild variant="outline">
              <Link to={paths.home}>Go to the home page</Link>
            </Button>
          }
        >
          Its creator may have stopped it, or the link is not quite right.
        </StorefrontMessage>
      ) : membership.isError || !membership.data ? (
        <StorefrontMessage
          icon={<RotateCw aria-hidden="true" />}
          title="This page could not be loaded"
          action={
            <Button variant="outline" loading={membership.isFetching} onClick={() => void membership.refetch()}>
              Try again
            </Button>
          }
        >
          Check your connection and try again.
        </StorefrontMessage>
      ) : (
        <MembershipView membership={membership.data} subscribed={params.get(PURCHASE_PARAM) === 'success'} />
      )}
    </StorefrontLayout>
  );
}

function MembershipView({ membership, subscribed }: { membership: PublicMembership; subscribed: boolean }) {
  const links = useStorefrontLinks();
  return (
    <div className="relative isolate">
      <div aria-hidden="true" className="absolute inset-x-0 top-0 -z-10 h-96 bg-linear-to-b from-muted to-background" />
      {subscribed && (
        <div className="border-b border-emerald-200 bg-emerald-50">
          <div role="status" className="mx-auto flex max-w-6xl items-start gap-3 px-4 py-4 sm:px-6" data-testid="purchase-confirmation">
            <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-700" />
            <p className="text-sm text-emerald-950">
              <strong className="font-semibold">Thank you: your subscription has started.</strong> We have emailed you how to sign in and start learning.
            </p>
          </div>
        </div>
      )}
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-x-12 lg:py-14">
        <section aria-labelledby="membership-title" className="grid content-start gap-5">
          <p className="text-sm font-medium text-muted-foreground">Membership · {membership.interval === 'month' ? 'monthly' : 'yearly'}</p>
          <h1 id="membership-title" className="text-3xl font-bold tracking-tight text-balance break-words sm:text-4xl">
            {membership.title}
          </h1>
          {membership.description && <p className="max-w-2xl whitespace-pre-line text-base text-muted-foreground sm:text-lg">{membership.description}</p>}
          <div className="flex items-center gap-3">
            <CreatorAvatar name={membership.creatorName} url={membership.creatorAvatarUrl} className="size-11" />
            <p className="grid text-sm">
              <span className="text-muted-foreground">Created by</span>
              {membership.creatorSlug ? (
                <SiteLink to={links.creator(membership.creatorSlug)} className="w-fit rounded-sm font-medium underline decoration-muted-foreground/40 underline-offset-4 outline-none hover:decoration-foreground focus-visible:ring-2 focus-visible:ring-ring">
                  {membership.creatorName}
                </SiteLink>
              ) : (
                <span className="font-medium">{membership.creatorName}</span>
              )}
            </p>
          </div>
        </section>

        <aside aria-label="Price" className="lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <div className="lg:sticky lg:top-20">
            <MembershipBuyBox membership={membership} subscribed={subscribed} />
          </div>
        </aside>

        <section aria-labelledby="courses-title" className="grid content-start gap-4 lg:col-start-1 lg:row-start-2">
          <h2 id="courses-title" className="text-xl font-semibold tracking-tight">
            The courses you get
          </h2>
          {membership.allCourses && <p className="text-sm text-muted-foreground">Every course {membership.creatorName} publishes, now and later.</p>}
          {membership.courses.length === 0 ? (
            <p className="rounded-xl border border-dashed p-4 text-sm text-muted-foreground">The first courses are on their way.</p>
          ) : (
            <ul className="divide-y overflow-hidden rounded-xl border bg-card" data-testid="membership-courses">
              {membership.courses.map((course) => (
                <li key={course.id} className="flex items-center gap-3 px-4 py-3">
                  <BookOpen aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
                  <SiteLink
                    to={links.course(course.id, membership.creatorSlug)}
                    className="min-w-0 flex-1 rounded-sm text-sm font-medium break-words underline decoration-muted-foreground/40 underline-offset-4 outline-none hover:decoration-foreground focus-visible:ring-2 focus-visible:ring-ring"
                  >
                    {course.title}
                  </SiteLink>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}

function MembershipSkeleton() {
  return (
    <div role="status" aria-busy="true" className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-x-12 lg:py-14">
      <span className="sr-only">Loading the membership...</span>
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
