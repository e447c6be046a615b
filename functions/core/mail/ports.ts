/** Ports of the platform's mail sent on a user's behalf (core/mail/on-behalf.ts). */

export interface SendQuota {
  /**
   * Takes one of `cap` sends of `userId` on `day` (YYYY-MM-DD, UTC) with a conditional counter: true when one was
   * free (and is now taken), false when all `cap` are taken. Concurrent takes never exceed `cap`.
   */
  take(userId: string, day: string, cap: number): Promise<boolean>;
}
