import type { MembershipDeps } from '#core/memberships/memberships.ts';
import type { MembershipRepository } from '#core/ports.ts';
import { dynamoMemberships } from '#data/memberships.ts';
import { billingRepository, clock, courseRepository, ids } from '#functions/composition/deps.ts';

/** Memberships (issue 34): their table module, and the creator's and the public page's use cases over it. */
let memberships: MembershipRepository | undefined;

export const membershipRepository = (): MembershipRepository => (memberships ??= dynamoMemberships());

export const membershipDeps = (): MembershipDeps => ({ memberships: membershipRepository(), courses: courseRepository(), billing: billingRepository(), clock, ids });
