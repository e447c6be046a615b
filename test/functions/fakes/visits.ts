import type { VisitMarks } from '#core/ports.ts';

/** Visit marks with functions/data/visits.ts's condition: a mark is written once (expiry is DynamoDB's business). */
export const memoryVisitMarks = () => {
  const marks = new Map<string, Date>();
  const repo: VisitMarks = {
    async markFirst(mark, expiresAt) {
      if (marks.has(mark)) return false;
      marks.set(mark, expiresAt);
      return true;
    },
  };
  return { ...repo, marks };
};
