import { RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';

/** One course to tick: its title, a line under it (its price), and a mark beside it (e.g. 'Draft'). */
export interface CourseCheckbox {
  id: string;
  title: string;
  detail: ReactNode;
  badge?: string | undefined;
}

/**
 * A creator's courses as a scrolling list of checkboxes (a coupon's courses, a bundle's): `chosen` the ids ticked, in
 * the order they were ticked; `focusRef` on the first box (where a form's error on the list puts the focus).
 */
export function CourseCheckboxes({
  courses,
  chosen,
  onChange,
  focusRef,
}: {
  courses: readonly CourseCheckbox[];
  chosen: string[];
  onChange: (ids: string[]) => void;
  focusRef: (element: HTMLInputElement | null) => void;
}) {
  const toggle = (id: string, on: boolean) => onChange(on ? [...chosen, id] : chosen.filter((c) => c !== id));
  return (
    <ul className="grid max-h-60 gap-1 overflow-y-auto rounded-lg border p-1.5">
      {courses.map((course, index) => (
        <li key={course.id}>
          <label className="flex cursor-pointer items-start gap-3 rounded-md px-2 py-2 text-sm hover:bg-muted/60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring">
            <input
              ref={index === 0 ? focusRef : undefined}
              type="checkbox"
              className="mt-0.5 size-4 shrink-0 accent-primary"
              checked={chosen.includes(course.id)}
              onChange={(event) => toggle(course.id, event.target.checked)}
            />
            <span className="grid min-w-0 flex-1 gap-0.5">
              <span className="font-medium [overflow-wrap:anywhere]">{course.title}</span>
              <span className="text-xs text-muted-foreground">{course.detail}</span>
            </span>
            {course.badge && (
              <Badge variant="outline" className="text-muted-foreground">
                {course.badge}
              </Badge>
            )}
          </label>
        </li>
      ))}
    </ul>
  );
}

/** Where the list goes while the creator's courses load. */
export function CourseCheckboxesLoading() {
  return (
    <div role="status" className="grid gap-2 rounded-lg border p-3">
      <span className="sr-only">Loading your courses...</span>
      <Skeleton className="h-6 w-3/4" />
      <Skeleton className="h-6 w-2/3" />
    </div>
  );
}

/** Where the list goes when the creator's courses could not be loaded: the reason and `retryLabel` to load them again. */
export function CourseCheckboxesFailed({ retrying, onRetry, retryLabel }: { retrying: boolean; onRetry: () => void; retryLabel: string }) {
  return (
    <div role="alert" className="flex flex-wrap items-center gap-3 rounded-lg border p-3 text-sm">
      <p className="flex-1">Your courses could not be loaded.</p>
      <Button variant="outline" size="sm" loading={retrying} onClick={onRetry}>
        {!retrying && <RotateCw aria-hidden="true" />}
        {retryLabel}
      </Button>
    </div>
  );
}
