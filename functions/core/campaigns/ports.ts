/**
 * The ports only the use cases of core/campaigns use (docs/decisions/0029-rooms-match-the-domains.md). Adapters
 * in functions/data and functions/adapters implement them; the ports several domains share are in core/ports.ts.
 */

/**
 * Starts the campaign sender's run for a queued campaign now (its first slice on the job's queue), without waiting for
 * it (the job's schedule would send it within the minute anyway: this only saves the wait).
 */
export interface JobStarter {
  start(campaignId: string): Promise<void>;
}
