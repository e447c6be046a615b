import type { CertificateRepository, StoredCertificate } from '#core/ports.ts';

/**
 * Certificates held by learners, in memory: what revoking an undone order's certificates reads and writes
 * (`heldFor`, `revoke`); `hold` puts one in place as the issuing job would have.
 */
export const memoryHeldCertificates = () => {
  const byId = new Map<string, StoredCertificate>();
  const repo: Pick<CertificateRepository, 'heldFor' | 'revoke' | 'get'> = {
    get: async (id) => byId.get(id),
    heldFor: async (courseId, learnerId) => [...byId.values()].find((c) => c.courseId === courseId && c.learnerId === learnerId),
    async revoke(id, at, reason) {
      const current = byId.get(id);
      if (current?.status !== 'valid') return false;
      byId.set(id, { ...current, status: 'revoked', revokedAt: at, revocationReason: reason });
      return true;
    },
  };
  return Object.assign(repo, {
    hold: (c: Pick<StoredCertificate, 'id' | 'courseId' | 'learnerId'> & Partial<StoredCertificate>) =>
      void byId.set(c.id, {
        creatorId: 'u1',
        learnerEmail: 'learner@example.com',
        learnerName: null,
        courseTitle: 'Course',
        creatorName: 'Creator',
        issuedAt: '2026-01-01T00:00:00.000Z',
        statusList: 0,
        statusIndex: byId.size,
        jwt: 'a.b.c',
        status: 'valid',
        revokedAt: null,
        revocationReason: null,
        ...c,
      }),
  });
};
