import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router-dom';
import { PURCHASE_PARAM, publicBundleQueryOptions } from '../api/storefront-queries.ts';
import { BundleBuyBox } from '../components/bundle-buy-box.tsx';
import { ProductCourseLink, ProductPage, ProductView, useSiteProduct } from '../components/product-page.tsx';
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
  const { product: bundle, notFound } = useSiteProduct(useQuery(publicBundleQueryOptions(bundleId)));
  const purchased = params.get(PURCHASE_PARAM) === 'success';
  usePageMeta(
    bundle.data
      ? { title: bundle.data.title, description: bundle.data.description || `${bundle.data.courses.length} courses by ${bundle.data.creatorName}, together.`, type: 'product' }
      : notFound
        ? { title: 'Bundle not found', description: 'This bundle is not available.', type: 'website' }
        : undefined,
  );

  return (
    <ProductPage
      product={bundle}
      notFound={notFound}
      loading="Loading the bundle..."
      unavailable={{ title: "This bundle isn't available", text: 'Its creator may have taken it off sale, or the link is not quite right.' }}
    >
      {(data) => (
        <ProductView
          product={data}
          purchased={purchased}
          id="bundle"
          kicker={`Course bundle · ${data.courses.length} courses`}
          buyBox={<BundleBuyBox bundle={data} purchased={purchased} />}
          contentsId="courses-title"
          contentsHeading="The courses in this bundle"
        >
          <ol className="divide-y overflow-hidden rounded-xl border bg-card" data-testid="bundle-courses">
            {data.courses.map((course, index) => (
              <li key={course.id} className="flex items-center gap-3 px-4 py-3">
                <span aria-hidden="true" className="grid size-7 shrink-0 place-items-center rounded-full bg-muted text-xs font-medium tabular-nums text-muted-foreground">
                  {index + 1}
                </span>
                <ProductCourseLink course={course} creatorSlug={data.creatorSlug} />
              </li>
            ))}
          </ol>
        </ProductView>
      )}
    </ProductPage>
  );
}
