import type { MembershipDeps, PublicMembershipDeps } from '#core/memberships/memberships.ts';
import type { MembersOnPublishDeps } from '#core/memberships/course-published.ts';
import type { MembershipRepository } from '#core/ports.ts';
import { sellerOf } from '#core/storefront/storefront.ts';
import { dynamoMemberships } from '#data/memberships.ts';
import { billingRepository, clock, courseRepository, enrollmentRepository, ids, userRepository } from '#functions/composition/deps.ts';
import { storefrontDeps } from '#functions/composition/deps-storefront.ts';

/** Memberships (issue 34): their table module, and the creator's and the public page's use cases over it. */
let memberships: MembershipRepository | undefined;

export const membershipRepository = (): MembershipRepository => (memberships ??= dynamoMemberships());

export const membershipDeps = (): MembershipDeps => ({ memberships: membershipRepository(), courses: courseRepository(), billing: billingRepository(), clock, ids });

/** The public membership page: the membership and its courses, and who sells it as the course and bundle pages name them. */
export const publicMembershipDeps = (): PublicMembershipDeps => ({
  memberships: membershipRepository(),
  courses: courseRepository(),
  billing: billingRepository(),
  seller: (creatorId) => sellerOf(storefrontDeps(), creatorId),
});

/** The learner's dashboard: their enrolments' membership sources, each subscription's row and its membership. */
export const learnerMembershipsDeps = () => ({ enrollments: enrollmentRepository(), memberships: membershipRepository(), clock });

/** The 'course-changed' run's `published` change: the creator's memberships and their members, each enrolled in the course. */
export const membersOnPublishDeps = (): MembersOnPublishDeps => ({
  memberships: membershipRepository(),
  courses: courseRepository(),
  enrollments: enrollmentRepository(),
  users: userRepository(),
  clock,
});
