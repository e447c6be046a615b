/**
 * The ports only the use cases of core/campaigns use (docs/decisions/0029-rooms-match-the-domains.md). Adapters
 * in functions/data and functions/adapters implement them; the ports several domains share are in core/ports.ts.
 */

/** Starts a job now, without waiting for it to finish (its schedule runs it anyway: this only saves the wait). */
export interface JobStarter {
  start(): Promise<void>;
}
