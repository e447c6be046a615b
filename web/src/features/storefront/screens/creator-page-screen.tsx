import { useQuery } from '@tanstack/react-query';
import { ArrowRight, BookOpen, Package, Repeat, RotateCw, UserX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { PublicCreator, StorefrontCourse } from '@contracts/storefront.ts';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { formatPounds } from '@/lib/format-money.ts';
import { paths, publicBundlePath, publicCoursePath, publicMembershipPath } from '@/lib/paths.ts';
import { publicCreatorQueryOptions } from '../api/storefront-queries.ts';
import { CreatorAvatar } from '../components/creator-avatar.tsx';
import { StorefrontLayout, StorefrontMessage } from '../components/storefront-layout.tsx';
import { useStorefrontLinks } from '../storefront-site.tsx';
import { usePageMeta } from '../use-page-meta.ts';

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * `/u/:slug`: a creator's public page: picture, name, bio and their published courses, then their memberships and
 * bundles on sale, each opening its own page (issue 34; no sign-in). `slug` given: the
 * page at `/` of that creator's custom domain.
 */
export function CreatorPageScreen({ slug: given }: { slug?: string } = {}) {
  const { slug: param = '' } = useParams();
  const slug = given ?? param;
  const creator = useQuery(publicCreatorQueryOptions(slug));
  const notFound = creator.error instanceof ApiError && creator.error.code === 'NOT_FOUND';
  const links = useStorefrontLinks();
  usePageMeta(
    creator.data
      ? { title: creator.data.displayName, description: creator.data.bio || `Online courses by ${creator.data.displayName}.`, type: 'profile' }
      : notFound
        ? { title: 'Creator not found', description: 'There is no creator page at this address.', type: 'website' }
        : undefined,
  );

  return (
    <StorefrontLayout branding={creator.data?.branding} home={creator.data ? links.creator(creator.data.slug) : undefined}>
      {creator.isPending ? (
        <CreatorSkeleton />
      ) : notFound ? (
        <StorefrontMessage
          icon={<UserX aria-hidden="true" />}
          title="There is no creator here"
          action={
            <Button asChild variant="outline">
              <Link to={paths.home}>Go to the home page</Link>
            </Button>
          }
        >
          No creator has this address. Check the link you followed.
        </StorefrontMessage>
      ) : creator.isError ? (
        <StorefrontMessage
          icon={<RotateCw aria-hidden="true" />}
          title="This page could not be loaded"
          action={
            <Button variant="outline" loading={creator.isFetching} onClick={() => void creator.refetch()}>
              Try again
            </Button>
          }
        >
          Check your connection and try again.
        </StorefrontMessage>
      ) : (
        <CreatorView creator={creator.data} />
      )}
    </StorefrontLayout>
  );
}

function CreatorView({ creator }: { creator: PublicCreator }) {
  return (
    <div className="relative isolate">
      <div aria-hidden="true" className="absolute inset-x-0 top-0 -z-10 h-80 bg-linear-to-b from-muted to-background" />
      <section aria-labelledby="creator-name" className="mx-auto flex max-w-6xl flex-col items-center gap-4 px-4 pt-12 pb-10 text-center sm:px-6 sm:pt-16">
        <CreatorAvatar name={creator.displayName} url={creator.avatarUrl} className="size-24 text-3xl shadow-sm ring-4 ring-background" />
        <div className="grid gap-2">
          <h1 id="creator-name" className="text-3xl font-bold tracking-tight text-balance sm:text-4xl">
            {creator.displayName}
          </h1>
          <p className="text-sm text-muted-foreground">{plural(creator.courses.length, 'course', 'courses')}</p>
        </div>
        {creator.bio && <p className="max-w-2xl whitespace-pre-line text-base text-muted-foreground">{creator.bio}</p>}
      </section>
      <section aria-labelledby="courses-title" className="mx-auto grid max-w-6xl gap-5 px-4 pb-16 sm:px-6">
        <h2 id="courses-title" className="text-xl font-semibold tracking-tight">
          Courses
        </h2>
        {creator.courses.length === 0 ? (
          <p className="rounded-xl border border-dashed bg-subtle px-4 py-10 text-center text-sm text-muted-foreground">
            {creator.displayName} has not published a course yet. Come back soon.
          </p>
        ) : (
          <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {creator.courses.map((course) => (
              <li key={course.id} className="grid">
                <CourseCard course={course} />
              </li>
            ))}
          </ul>
        )}
      </section>
      {creator.memberships.length > 0 && (
        <section aria-labelledby="memberships-title" className="mx-auto grid max-w-6xl gap-5 px-4 pb-16 sm:px-6">
          <h2 id="memberships-title" className="text-xl font-semibold tracking-tight">
            Memberships
          </h2>
          <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {creator.memberships.map((membership) => (
              <li key={membership.id} className="grid">
                <OfferCard
                  to={publicMembershipPath(membership.id)}
                  icon={<Repeat className="size-5" />}
                  title={membership.title}
                  detail={membership.allCourses ? 'Every course, including new ones' : 'A subscription to chosen courses'}
                  price={`${formatPounds(membership.priceAmount)} a ${membership.interval}`}
                />
              </li>
            ))}
          </ul>
        </section>
      )}
      {creator.bundles.length > 0 && (
        <section aria-labelledby="bundles-title" className="mx-auto grid max-w-6xl gap-5 px-4 pb-16 sm:px-6">
          <h2 id="bundles-title" className="text-xl font-semibold tracking-tight">
            Bundles
          </h2>
          <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
            {creator.bundles.map((bundle) => (
              <li key={bundle.id} className="grid">
                <OfferCard
                  to={publicBundlePath(bundle.id)}
                  icon={<Package className="size-5" />}
                  title={bundle.title}
                  detail={`${plural(bundle.courseCount, 'course', 'courses')}, one payment`}
                  price={formatPounds(bundle.priceAmount)}
                />
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}

/** A membership or bundle of the creator's page: the whole card opens its page. */
function OfferCard({ to, icon, title, detail, price }: { to: string; icon: ReactNode; title: string; detail: string; price: string }) {
  return (
    <Link
      to={to}
      className="group flex flex-col gap-3 rounded-xl border bg-card p-5 shadow-sm transition-shadow outline-none hover:shadow-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
    >
      <span aria-hidden="true" className="grid size-10 place-items-center rounded-lg bg-secondary text-secondary-foreground">
        {icon}
      </span>
      <h3 className="text-lg font-semibold leading-snug tracking-tight break-words">{title}</h3>
      <div className="mt-auto flex items-center justify-between gap-3 border-t pt-3 text-sm">
        <span className="text-muted-foreground">{detail}</span>
        <span className="flex items-center gap-1.5 font-semibold whitespace-nowrap">
          {price}
          <ArrowRight aria-hidden="true" className="size-4 transition-transform group-hover:translate-x-0.5" />
        </span>
      </div>
    </Link>
  );
}

/** A course of the creator's page: the whole card opens its storefront. */
function CourseCard({ course }: { course: StorefrontCourse }) {
  return (
    <Link
      to={publicCoursePath(course.id)}
      className="group flex flex-col gap-3 rounded-xl border bg-card p-5 shadow-sm transition-shadow outline-none hover:shadow-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
    >
      <span aria-hidden="true" className="grid size-10 place-items-center rounded-lg bg-secondary text-secondary-foreground">
        <BookOpen className="size-5" />
      </span>
      <h3 className="text-lg font-semibold leading-snug tracking-tight break-words">{course.title}</h3>
      {course.description && <p className="line-clamp-3 text-sm text-muted-foreground">{course.description}</p>}
      <div className="mt-auto flex items-center justify-between gap-3 border-t pt-3 text-sm">
        <span className="text-muted-foreground">{plural(course.lessonCount, 'lesson', 'lessons')}</span>
        <span className="flex items-center gap-1.5 font-semibold">
          {course.priceAmount > 0 ? formatPounds(course.priceAmount) : <span className="font-normal text-muted-foreground">Not on sale</span>}
          <ArrowRight aria-hidden="true" className="size-4 transition-transform group-hover:translate-x-0.5" />
        </span>
      </div>
    </Link>
  );
}

function CreatorSkeleton() {
  return (
    <div role="status" aria-busy="true" className="mx-auto flex max-w-6xl flex-col items-center gap-4 px-4 pt-12 pb-16 sm:px-6 sm:pt-16">
      <span className="sr-only">Loading the creator's page...</span>
      <Skeleton className="size-24 rounded-full" />
      <Skeleton className="h-9 w-56" />
      <Skeleton className="h-4 w-80 max-w-full" />
      <div className="mt-8 grid w-full gap-5 sm:grid-cols-2 lg:grid-cols-3">
        <Skeleton className="h-48 rounded-xl" />
        <Skeleton className="h-48 rounded-xl" />
        <Skeleton className="h-48 rounded-xl" />
      </div>
    </div>
  );
}
