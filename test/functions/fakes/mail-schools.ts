import type { MailSchool } from '#core/ports.ts';
import { APP_ORIGIN } from '#test/functions/fakes/deps.ts';

/** A branded school as its learners' emails show it (issue 32): its name, and its logo's lasting link. */
export const CLAY_SCHOOL: MailSchool = { name: 'Clay & Kiln', logoUrl: `${APP_ORIGIN}/api/public/schools/u1/logo?v=logo-1` };

/**
 * The creators' schools for their learners' emails (core/branding mailSchoolOf): none (the platform's own email) until
 * a test brands one with `brand`, as a creator with branding in force.
 */
export const memoryMailSchools = () => {
  const schools = new Map<string, MailSchool>();
  return {
    mailSchool: async (creatorId: string): Promise<MailSchool | undefined> => schools.get(creatorId),
    brand: (creatorId: string, school: MailSchool = CLAY_SCHOOL) => void schools.set(creatorId, school),
  };
};
