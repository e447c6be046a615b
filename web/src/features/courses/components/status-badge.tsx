import type { CourseStatus } from '@contracts/courses.ts';
import { Badge } from '@/components/ui/badge.tsx';

/** 'Published' (learners can take it) or 'Draft' (only the creator sees it). */
export function StatusBadge({ status }: { status: CourseStatus }) {
  return status === 'published' ? (
    <Badge className="border-transparent bg-emerald-100 text-emerald-900">Published</Badge>
  ) : (
    <Badge variant="secondary">Draft</Badge>
  );
}
