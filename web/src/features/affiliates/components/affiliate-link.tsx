import { useQuery } from '@tanstack/react-query';
import { Copy } from 'lucide-react';
import { useId, useState } from 'react';
import type { Affiliate } from '@contracts/affiliates.ts';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { courseChoicesQueryOptions } from '@/lib/course-choices.ts';
import { publicCoursePath, urlOf } from '@/lib/paths.ts';
import { useCopyLink } from '@/components/use-copy-link.ts';
import { cn } from '@/lib/utils.ts';
import { affiliatesMessages as m } from '../affiliates-messages.ts';

const YOUR_PAGE = '';

/** The affiliate's redirect sending its buyers to one course's public page (the redirect counts the click first). */
export const courseLinkOf = (code: string, courseId: string): string =>
  urlOf(`/api/public/r/${encodeURIComponent(code)}?to=${publicCoursePath(courseId)}`);

const selectClass = cn(
  'h-10 w-full min-w-0 rounded-md border border-input bg-background px-2 text-base shadow-xs sm:w-56 sm:text-sm xl:h-8 xl:w-44',
  'outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/50',
);

/**
 * An affiliate's link, ready to share: where it leads ('Your page', the API's own link, or one of the creator's
 * published courses), the link itself in a read-only field (to copy by hand) and 'Copy link'.
 */
export function AffiliateLink({ affiliate, className }: { affiliate: Affiliate; className?: string }) {
  const courses = useQuery(courseChoicesQueryOptions());
  const [target, setTarget] = useState(YOUR_PAGE);
  const id = useId();
  const published = courses.data?.items.filter((course) => course.status === 'published') ?? [];
  const link = target === YOUR_PAGE ? affiliate.link : courseLinkOf(affiliate.code, target);

  const { field, copy } = useCopyLink(link, m.link);

  return (
    <div className={cn('flex min-w-0 flex-col gap-2 xl:flex-row xl:items-center', className)}>
      <div className="flex min-w-0 items-center gap-2">
        <label htmlFor={`${id}-to`} className="shrink-0 text-xs font-medium text-muted-foreground">
          Link to <span className="sr-only">({affiliate.name})</span>
        </label>
        <select id={`${id}-to`} className={selectClass} value={target} onChange={(event) => setTarget(event.target.value)}>
          <option value={YOUR_PAGE}>{m.link.yourPage}</option>
          {published.map((course) => (
            <option key={course.id} value={course.id}>
              {course.title}
            </option>
          ))}
        </select>
      </div>
      <div className="flex min-w-0 flex-1 items-center gap-2">
        <Input
          ref={field}
          readOnly
          value={link}
          aria-label={`Link of ${affiliate.name}`}
          onFocus={(event) => event.target.select()}
          className="h-10 flex-1 font-mono sm:text-xs xl:h-8"
        />
        <Button variant="outline" size="sm" className="max-xl:h-10" aria-label={`Copy link for ${affiliate.name}`} onClick={() => void copy()}>
          <Copy aria-hidden="true" />
          Copy link
        </Button>
      </div>
    </div>
  );
}
