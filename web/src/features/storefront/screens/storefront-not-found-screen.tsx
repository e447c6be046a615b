import { useQuery } from '@tanstack/react-query';
import { SearchX } from 'lucide-react';
import { Link, useLocation } from 'react-router-dom';
import { Button } from '@/components/ui/button.tsx';
import { paths } from '@/lib/paths.ts';
import { publicCreatorQueryOptions } from '../api/storefront-queries.ts';
import { StorefrontLayout, StorefrontMessage } from '../components/storefront-layout.tsx';
import { useStorefrontSite } from '../storefront-site.tsx';
import { usePageMeta } from '../use-page-meta.ts';

/**
 * Any path a creator's custom domain does not serve (storefront-host.ts): sign-in, dashboards, another creator's
 * page or course. Framed by the creator's school like their pages, it links to their page and to the platform's own
 * address, where accounts are.
 */
export function StorefrontNotFoundScreen() {
  const site = useStorefrontSite();
  const { pathname } = useLocation();
  const creator = useQuery({ ...publicCreatorQueryOptions(site?.creatorSlug ?? ''), enabled: Boolean(site?.creatorSlug) });
  usePageMeta({ title: 'Page not found', description: 'There is no page at this address.', type: 'website' });
  const school = creator.data?.branding?.schoolName ?? creator.data?.displayName;
  const platform = site?.appUrl ?? paths.home;
  return (
    <StorefrontLayout branding={creator.data?.branding} home={paths.home}>
      <StorefrontMessage
        icon={<SearchX aria-hidden="true" />}
        title="Page not found"
        action={
          <div className="flex flex-col items-center gap-2 sm:flex-row">
            {site?.creatorSlug && (
              <Button asChild>
                <Link to={paths.home}>{school ? `Go to ${school}` : 'Go to the home page'}</Link>
              </Button>
            )}
            <Button asChild variant="outline">
              <a href={platform}>Go to Course Platform</a>
            </Button>
          </div>
        }
      >
        <p>
          There is no page at <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs break-all">{pathname}</code> on this site. To sign in or
          reach your dashboard, go to Course Platform.
        </p>
      </StorefrontMessage>
    </StorefrontLayout>
  );
}
