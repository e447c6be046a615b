import { MyCoursesScreen } from '@/features/courses/screens/my-courses-screen.tsx';
import { PayoutsBanner } from '@/features/payouts/components/payouts-banner.tsx';

/** /dashboard/creator/courses: My Courses, with the payouts feature's banner while the creator cannot sell yet. */
export function CreatorCoursesRoute() {
  return <MyCoursesScreen banner={<PayoutsBanner />} />;
}
