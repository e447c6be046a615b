import { Link } from 'react-router-dom';
import { paths } from '@/lib/paths.ts';

/**
 * The product's name with its CP mark, linking home: the start of the headers of the pages outside the dashboard
 * (the storefront's frame, the API reference), so they look like one site. The mark is decorative: the name is the text.
 */
export function BrandHomeLink() {
  return (
    <Link to={paths.home} className="flex items-center gap-2 rounded-md text-base font-semibold tracking-tight outline-none focus-visible:ring-2 focus-visible:ring-ring">
      <span aria-hidden="true" className="grid size-8 place-items-center rounded-lg bg-primary text-sm text-primary-foreground">
        CP
      </span>
      Course Platform
    </Link>
  );
}
