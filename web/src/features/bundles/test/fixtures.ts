import type { Bundle } from '@contracts/bundles.ts';

/** A bundle as GET /api/bundles lists it: by default Watercolour (£40) and Portraits in Ink (£25) for £50. */
export const bundle = (id: string, title: string, changes: Partial<Bundle> = {}): Bundle => ({
  id,
  title,
  description: '',
  courses: [
    { id: 'course-1', title: 'Watercolour for Beginners', priceAmount: 4_000 },
    { id: 'course-2', title: 'Portraits in Ink', priceAmount: 2_500 },
  ],
  priceAmount: 5_000,
  currency: 'gbp',
  separateAmount: 6_500,
  savingAmount: 1_500,
  active: true,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...changes,
});

export { course, courses } from '@/test/fixtures.ts';
