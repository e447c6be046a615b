import { aiLedgerActions, aiPrices, type AiTool } from '#contracts/credits.ts';
import { ConflictError, InsufficientCreditsError, UpstreamError } from '#core/errors.ts';
import type { BusinessMetric, ChargedReplay, Clock, CreditRepository, GenerationSlot, Ids, Metrics, ReplayStore } from '#core/ports.ts';

/**
 * THE one charge path of every AI tool (issue 36 point 4): the landing page and the three drafting tools charge,
 * call, validate, refund and replay through here, so credits behave the same whichever tool spends them.
 */

/** How long a retry with the same Idempotency-Key is answered from the first request's outcome. */
export const REPLAY_SECONDS = 24 * 60 * 60;
export const KEY_REUSED_MESSAGE = 'This Idempotency-Key was already used for a different request.';
export const KEY_EXPIRED_MESSAGE = 'This Idempotency-Key was used more than 24 hours ago. Send a new one.';

export interface ChargeDeps {
  credits: CreditRepository;
  clock: Clock;
  ids: Ids;
  metrics: Metrics;
}

/** Why an answer cannot be used (for the log; the caller only ever sees 502). A tool's `run` throws it. */
export class UnusableAnswer extends Error {}

export interface ChargedTool<T> {
  tool: AiTool;
  replays: ReplayStore<T>;
  /** The guard key's prefix: `<prefix>:<Idempotency-Key>` (the landing page's is 'landing', as before the table). */
  keyPrefix: string;
  /** One running call per creator, when the tool has a slot (held: 409 with `busyMessage`, nothing charged). */
  slot?: GenerationSlot & { seconds: number; busyMessage: string };
  messages: { short: string; failed: string };
  /** The business metric of a success. */
  metric: BusinessMetric;
}

export interface ChargedInput<T> {
  userId: string;
  idempotencyKey?: string | undefined;
  /** What tells a retry of this request from another request under the same key. */
  requestHash: string;
  /** The model call and its checks: throws (UpstreamError, UnusableAnswer, anything) for an answer not to be charged. */
  run: () => Promise<T>;
}

const fromReplay = <T>(replay: ChargedReplay<T>, requestHash: string, failed: string): { result: T; creditsRemaining: number } => {
  if (replay.requestHash !== requestHash) throw new ConflictError(KEY_REUSED_MESSAGE);
  if (replay.outcome === 'failed') throw new UpstreamError(failed);
  return { result: replay.result, creditsRemaining: replay.creditsRemaining };
};

/**
 * A charged call, in the order that keeps credits right:
 *   1. a request whose Idempotency-Key already completed is answered as it was (no charge, no model call);
 *   2. the creator's slot of the tool is taken, when it has one (held: 409, nothing charged);
 *   3. the tool's price is spent in the credits' conditional transaction (short: 402, no model call), the ledger
 *      line naming the tool;
 *   4. `run` calls the model and checks its answer;
 *   5. an error or unusable answer: the failure kept for a retry of the same key, the price back (keyed: once), 502;
 *   6. otherwise the result is the answer, kept for a retry of the same key.
 * A slot is freed whatever happens. A retry of a request that was charged but never finished (the function died) finds
 * its spend already made: it runs then, without a second charge. A failure is kept as an outcome too, so a retry of a
 * refunded request is 502 again rather than a free answer.
 */
export const chargedCall = async <T>(deps: ChargeDeps, tool: ChargedTool<T>, input: ChargedInput<T>): Promise<{ result: T; creditsRemaining: number }> => {
  const { userId, idempotencyKey, requestHash } = input;
  const nowSeconds = () => Math.floor(deps.clock.now().getTime() / 1000);
  const price = aiPrices[tool.tool];

  // 1.
  if (idempotencyKey) {
    const replay = await tool.replays.get(userId, idempotencyKey);
    if (replay && replay.expiresAt > nowSeconds()) {
      // A failure kept, its refund perhaps not made (the database failed in between): made now, once.
      if (replay.outcome === 'failed' && replay.requestHash === requestHash) await refund(deps, tool, userId, `${tool.keyPrefix}:${idempotencyKey}`);
      return fromReplay(replay, requestHash, tool.messages.failed);
    }
  }

  // 2.
  const holder = deps.ids.newId();
  if (tool.slot && !(await tool.slot.acquire({ userId, holder, now: nowSeconds(), expiresAt: nowSeconds() + tool.slot.seconds }))) {
    throw new ConflictError(tool.slot.busyMessage);
  }

  try {
    // 3.
    const attempt = `${tool.keyPrefix}:${idempotencyKey ?? holder}`;
    const spent = await deps.credits.spend({
      userId,
      entry: { actionType: aiLedgerActions[tool.tool].charge, credits: -price, createdAt: deps.clock.now().toISOString() },
      key: attempt,
      requestHash,
    });
    if (spent.status !== 'spent' && spent.status !== 'replayed') {
      throw spent.status === 'key-reused' ? new ConflictError(KEY_REUSED_MESSAGE) : new InsufficientCreditsError(tool.messages.short);
    }
    // Charged before under this key, with no outcome kept: an attempt that died, fine to finish now; but once its
    // outcome has expired (24 h), the key is spent for good, or one charge could buy an answer a day forever.
    if (spent.status === 'replayed' && Date.parse(spent.entry.createdAt) <= deps.clock.now().getTime() - REPLAY_SECONDS * 1000) {
      throw new ConflictError(KEY_EXPIRED_MESSAGE);
    }

    // 4. and 5.
    let result: T;
    try {
      result = await input.run();
    } catch (error) {
      // The failure kept first, then refunded: a retry finds the failure (and makes sure of its refund), never a
      // refunded charge with no outcome, which it would take for an attempt that died and finish with a free answer.
      if (idempotencyKey) await tool.replays.put(userId, idempotencyKey, { outcome: 'failed', requestHash, expiresAt: nowSeconds() + REPLAY_SECONDS });
      await refund(deps, tool, userId, attempt);
      throw Object.assign(new UpstreamError(tool.messages.failed), { cause: error });
    }

    // 6.
    const creditsRemaining = spent.account.creditsRemaining;
    if (idempotencyKey) {
      await tool.replays.put(userId, idempotencyKey, { outcome: 'generated', requestHash, result, creditsRemaining, expiresAt: nowSeconds() + REPLAY_SECONDS });
    }
    deps.metrics.record(tool.metric);
    if (spent.status === 'spent') deps.metrics.record('CreditsSpent', price);
    return { result, creditsRemaining };
  } finally {
    if (tool.slot) await releaseSlot(tool.slot, userId, holder);
  }
};

/** The price of a failed attempt back, keyed so it comes back once however often this is called. */
const refund = <T>(deps: Pick<ChargeDeps, 'credits' | 'clock'>, tool: ChargedTool<T>, userId: string, attempt: string) =>
  deps.credits.credit({
    userId,
    entry: { actionType: aiLedgerActions[tool.tool].refund, credits: aiPrices[tool.tool], createdAt: deps.clock.now().toISOString() },
    key: `refund:${attempt}`,
  });

/** Tries at freeing a slot before leaving it to expire by itself. */
const RELEASE_TRIES = 3;

/**
 * Frees the slot even when the database stumbles (a few tries); never turns the call's own answer into an error: a
 * slot that cannot be freed now frees itself when it expires.
 */
const releaseSlot = async (slot: GenerationSlot, userId: string, holder: string): Promise<void> => {
  for (let attempt = 1; attempt <= RELEASE_TRIES; attempt++) {
    try {
      await slot.release({ userId, holder });
      return;
    } catch {
      // Try again; after the last try the slot expires by itself.
    }
  }
};
