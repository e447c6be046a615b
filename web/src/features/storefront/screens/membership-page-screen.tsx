import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router-dom';
import { PURCHASE_PARAM, publicMembershipQueryOptions } from '../api/storefront-queries.ts';
import { MembershipBuyBox } from '../components/membership-buy-box.tsx';
import { ProductCourseLink, ProductPage, ProductView, useSiteProduct } from '../components/product-page.tsx';
import { usePageMeta } from '../use-page-meta.ts';

/** The banner after subscribing: Stripe's Checkout has started the subscription, and the welcome email is on its way. */
const SUBSCRIBED = { lead: 'Thank you: your subscription has started.', rest: 'We have emailed you how to sign in and start learning.' };

/**
 * `/m/:membershipId`: a membership's page (issue 34), as a bundle's: its title, description and creator, the courses
 * it gives now (each linking to its own page; 'all' says new ones join), its price a month or a year, and 'Subscribe'
 * (MembershipBuyBox), in the creator's branding while their plan has it. For anyone, no sign-in. On a creator's
 * custom domain only their memberships: another creator's is not found there.
 */
export function MembershipPageScreen() {
  const { membershipId = '' } = useParams();
  const [params] = useSearchParams();
  const { product: membership, notFound } = useSiteProduct(useQuery(publicMembershipQueryOptions(membershipId)));
  const subscribed = params.get(PURCHASE_PARAM) === 'success';
  usePageMeta(
    membership.data
      ? { title: membership.data.title, description: membership.data.description || `A membership to courses by ${membership.data.creatorName}.`, type: 'product' }
      : notFound
        ? { title: 'Membership not found', description: 'This membership is not available.', type: 'website' }
        : undefined,
  );

  return (
    <ProductPage
      product={membership}
      notFound={notFound}
      loading="Loading the membership..."
      unavailable={{ title: "This membership isn't available", text: 'Its creator may have stopped it, or the link is not quite right.' }}
    >
      {(data) => (
        <ProductView
          product={data}
          purchased={subscribed}
          confirmation={SUBSCRIBED}
          id="membership"
          kicker={`Membership · ${data.interval === 'month' ? 'monthly' : 'yearly'}`}
          buyBox={<MembershipBuyBox membership={data} subscribed={subscribed} />}
          contentsId="courses-title"
          contentsHeading="The courses you get"
        >
          {data.allCourses && <p className="text-sm text-muted-foreground">Every course {data.creatorName} publishes, now and later.</p>}
          {data.courses.length === 0 ? (
            <p className="rounded-xl border border-dashed p-4 text-sm text-muted-foreground">The first courses are on their way.</p>
          ) : (
            <ul className="divide-y overflow-hidden rounded-xl border bg-card" data-testid="membership-courses">
              {data.courses.map((course) => (
                <li key={course.id} className="flex items-center gap-3 px-4 py-3">
                  <ProductCourseLink course={course} creatorSlug={data.creatorSlug} />
                </li>
              ))}
            </ul>
          )}
        </ProductView>
      )}
    </ProductPage>
  );
}
