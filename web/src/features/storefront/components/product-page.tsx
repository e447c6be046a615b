import type { UseQueryResult } from '@tanstack/react-query';
import { BookOpen, CircleCheck, RotateCw, SearchX } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { BrandingView } from '@contracts/branding.ts';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { ApiError } from '@/lib/api-error.ts';
import { paths } from '@/lib/paths.ts';
import { SiteLink, useStorefrontLinks, useStorefrontSite } from '../storefront-site.tsx';
import { CreatorAvatar } from './creator-avatar.tsx';
import { StorefrontLayout, StorefrontMessage } from './storefront-layout.tsx';

/**
 * What a course's, a bundle's and a membership's pages (issue 34) share, so that the two read and behave as one storefront:
 * finding the product only on its own creator's custom domain, the loading, not-found and failed states, the
 * confirmation after paying, and the page's frame (title, description, creator, the price box at the side, the
 * contents below).
 */

/** The confirmation after paying (`?purchase=success`): its lead and the rest. */
export const PURCHASE_RECEIVED = 'Payment received.';
export const PURCHASE_NEXT = "Check your email: we've sent you how to sign in and start learning.";

/** What a product's public read tells about its seller (a course page's and a bundle's alike). */
interface Seller {
  creatorName: string;
  creatorSlug: string | null;
  creatorAvatarUrl: string | null;
  branding: BrandingView | null;
}

type ProductQuery<T> = Pick<UseQueryResult<T>, 'data' | 'error' | 'isPending' | 'isError' | 'isFetching' | 'refetch'>;

/**
 * A product's public read as its page shows it. On a creator's custom domain only their products are there: another
 * creator's reads as not found (its data dropped), as a 404 does.
 */
export function useSiteProduct<T extends Seller>(query: UseQueryResult<T>): { product: ProductQuery<T>; notFound: boolean } {
  const site = useStorefrontSite();
  const elsewhere = site !== undefined && query.data !== undefined && query.data.creatorSlug !== site.creatorSlug;
  const product: ProductQuery<T> = elsewhere ? { ...query, data: undefined } : query;
  const notFound = elsewhere || (product.error instanceof ApiError && product.error.code === 'NOT_FOUND');
  return { product, notFound };
}

/**
 * A product's page in its creator's branding: a skeleton while it loads, `unavailable` when it is not found (off sale,
 * unpublished, another creator's domain), 'Try again' when it could not be read, else the page (`children`).
 */
export function ProductPage<T extends Seller>({
  product,
  notFound,
  loading,
  unavailable,
  children,
}: {
  product: ProductQuery<T>;
  notFound: boolean;
  /** The skeleton's words for screen readers, e.g. 'Loading the course...'. */
  loading: string;
  unavailable: { title: string; text: string };
  children: (data: T) => ReactNode;
}) {
  const links = useStorefrontLinks();
  return (
    <StorefrontLayout branding={product.data?.branding} home={product.data?.creatorSlug ? links.creator(product.data.creatorSlug) : undefined}>
      {product.isPending ? (
        <ProductSkeleton label={loading} />
      ) : notFound ? (
        <StorefrontMessage
          icon={<SearchX aria-hidden="true" />}
          title={unavailable.title}
          action={
            <Button asChild variant="outline">
              <Link to={paths.home}>Go to the home page</Link>
            </Button>
          }
        >
          {unavailable.text}
        </StorefrontMessage>
      ) : product.isError || !product.data ? (
        <StorefrontMessage
          icon={<RotateCw aria-hidden="true" />}
          title="This page could not be loaded"
          action={
            <Button variant="outline" loading={product.isFetching} onClick={() => void product.refetch()}>
              Try again
            </Button>
          }
        >
          Check your connection and try again.
        </StorefrontMessage>
      ) : (
        children(product.data)
      )}
    </StorefrontLayout>
  );
}

/**
 * A loaded product's page: the confirmation banner after paying (`?purchase=success`), then its kind (`kicker`),
 * title, description and creator with any `facts` under them, the price box (`buyBox`) at the side (sticky on wide
 * screens, right under the title on narrow ones), and its contents (`children`, under `contentsHeading`) below.
 * `id` names the sections for assistive technology ('course': course-title, `contentsId`).
 */
export function ProductView({
  product,
  purchased,
  confirmation = { lead: PURCHASE_RECEIVED, rest: PURCHASE_NEXT },
  id,
  kicker,
  facts,
  buyBox,
  contentsId,
  contentsHeading,
  children,
}: {
  product: Omit<Seller, 'branding'> & { title: string; description: string };
  purchased: boolean;
  /** The banner's words after paying (a subscription says it has started). */
  confirmation?: { lead: string; rest: string };
  id: string;
  kicker: ReactNode;
  facts?: ReactNode;
  buyBox: ReactNode;
  contentsId: string;
  contentsHeading: ReactNode;
  children: ReactNode;
}) {
  const links = useStorefrontLinks();
  return (
    <div className="relative isolate">
      <div aria-hidden="true" className="absolute inset-x-0 top-0 -z-10 h-96 bg-linear-to-b from-muted to-background" />
      {purchased && (
        <div className="border-b border-emerald-200 bg-emerald-50">
          <div role="status" className="mx-auto flex max-w-6xl items-start gap-3 px-4 py-4 sm:px-6" data-testid="purchase-confirmation">
            <CircleCheck aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-emerald-700" />
            <p className="text-sm text-emerald-950">
              <strong className="font-semibold">{confirmation.lead}</strong> {confirmation.rest}
            </p>
          </div>
        </div>
      )}
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-x-12 lg:py-14">
        <section aria-labelledby={`${id}-title`} className="grid content-start gap-5">
          <p className="text-sm font-medium text-muted-foreground">{kicker}</p>
          <h1 id={`${id}-title`} className="text-3xl font-bold tracking-tight text-balance break-words sm:text-4xl">
            {product.title}
          </h1>
          {product.description && <p className="max-w-2xl whitespace-pre-line text-base text-muted-foreground sm:text-lg">{product.description}</p>}
          <div className="flex items-center gap-3">
            <CreatorAvatar name={product.creatorName} url={product.creatorAvatarUrl} className="size-11" />
            <p className="grid text-sm">
              <span className="text-muted-foreground">Created by</span>
              {product.creatorSlug ? (
                <SiteLink to={links.creator(product.creatorSlug)} className="w-fit rounded-sm font-medium underline decoration-muted-foreground/40 underline-offset-4 outline-none hover:decoration-foreground focus-visible:ring-2 focus-visible:ring-ring">
                  {product.creatorName}
                </SiteLink>
              ) : (
                <span className="font-medium">{product.creatorName}</span>
              )}
            </p>
          </div>
          {facts}
        </section>

        <aside aria-label="Price" className="lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <div className="lg:sticky lg:top-20">{buyBox}</div>
        </aside>

        <section aria-labelledby={contentsId} className="grid content-start gap-4 lg:col-start-1 lg:row-start-2">
          <h2 id={contentsId} className="text-xl font-semibold tracking-tight">
            {contentsHeading}
          </h2>
          {children}
        </section>
      </div>
    </div>
  );
}

/** A course a bundle holds or a membership gives, linking to its own page (on the creator's site when it has one). */
export function ProductCourseLink({ course, creatorSlug }: { course: { id: string; title: string }; creatorSlug: string | null }) {
  const links = useStorefrontLinks();
  return (
    <>
      <BookOpen aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
      <SiteLink
        to={links.course(course.id, creatorSlug)}
        className="min-w-0 flex-1 rounded-sm text-sm font-medium break-words underline decoration-muted-foreground/40 underline-offset-4 outline-none hover:decoration-foreground focus-visible:ring-2 focus-visible:ring-ring"
      >
        {course.title}
      </SiteLink>
    </>
  );
}

/** The page's shape while it loads: title, description, creator, contents, and the price box. */
function ProductSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-busy="true" className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:px-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:gap-x-12 lg:py-14">
      <span className="sr-only">{label}</span>
      <div className="grid content-start gap-4">
        <Skeleton className="h-4 w-28" />
        <Skeleton className="h-10 w-3/4" />
        <Skeleton className="h-4 w-full max-w-xl" />
        <Skeleton className="h-4 w-2/3 max-w-lg" />
        <div className="flex items-center gap-3">
          <Skeleton className="size-11 rounded-full" />
          <Skeleton className="h-4 w-32" />
        </div>
        <Skeleton className="mt-6 h-48 w-full rounded-xl" />
      </div>
      <Skeleton className="h-80 w-full rounded-xl" />
    </div>
  );
}
