import { describe, expect, it } from 'vitest';
import { learnerProfileBody } from '#contracts/certificates.ts';
import { learnerProfileOf, saveLearnerProfile } from '#core/certificates/learner-profile.ts';
import { testClock, NOW } from '#test/functions/fakes/clock.ts';
import { memoryLearnerProfiles } from '#test/functions/fakes/learner-profiles.ts';
import { memoryUsers } from '#test/functions/fakes/users.ts';

const world = () => {
  const clock = testClock();
  const deps = {
    learnerProfiles: memoryLearnerProfiles(),
    users: memoryUsers([{ id: 'ann', email: 'ann@example.com', role: 'learner', createdAt: NOW }]),
    clock,
  };
  const save = (certificateName: string) => saveLearnerProfile(deps, { learnerId: 'ann', body: learnerProfileBody.parse({ certificateName }) });
  return { deps, clock, save };
};

describe("the learner's name on certificates", () => {
  it('is empty until given, then saved with the spaces a person types by mistake folded', async () => {
    const { deps, save } = world();
    expect(await learnerProfileOf(deps, 'ann')).toEqual({ email: 'ann@example.com', certificateName: '', certificatesUpdating: false, updatedAt: null });
    expect(await save('  Ann   Smith ')).toEqual({ email: 'ann@example.com', certificateName: 'Ann Smith', certificatesUpdating: true, updatedAt: NOW });
    expect(await learnerProfileOf(deps, 'ann')).toMatchObject({ certificateName: 'Ann Smith' });
  });

  it('sends the certificates for re-issue only when the name changes, and keeps a re-issue under way', async () => {
    const { deps, clock, save } = world();
    await save('Ann Smith');
    await deps.learnerProfiles.clearRename('ann', NOW);
    clock.advance(1000);
    expect(await save('Ann Smith')).toMatchObject({ certificatesUpdating: false });
    clock.advance(1000);
    expect(await save('Ann B. Smith')).toMatchObject({ certificatesUpdating: true });
    clock.advance(1000);
    // Saved again before the job got to it: still due (the job clears only the version it re-issued).
    expect(await save('Ann B. Smith')).toMatchObject({ certificatesUpdating: true });
    expect(await save('')).toMatchObject({ certificateName: '', certificatesUpdating: true });
  });

  it('refuses control characters, markup brackets and names over 100 characters', () => {
    for (const name of ['Ann\u0000', '<b>Ann</b>', 'A'.repeat(101)]) expect(learnerProfileBody.safeParse({ certificateName: name }).success).toBe(false);
    expect(learnerProfileBody.safeParse({ certificateName: "Zoë O'Brien-Núñez" }).success).toBe(true);
    expect(learnerProfileBody.safeParse({ certificateName: 'Ann', extra: 1 }).success).toBe(false);
  });
});
