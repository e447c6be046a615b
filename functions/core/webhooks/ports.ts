import type { WebhookDeliveryStatus, WebhookEventType } from '#contracts/webhooks.ts';
import type { Clock, Ids, QueuedMail, SealedSecret, SecretCipher, UserRepository } from '#core/ports.ts';

/** An endpoint as stored (functions/data/webhooks.ts): its secret only sealed for its creator. */
export interface StoredWebhookEndpoint {
  readonly creatorId: string;
  readonly id: string;
  readonly url: string;
  readonly events: readonly WebhookEventType[];
  readonly secret: SealedSecret;
  readonly createdAt: string;
  readonly disabledAt: string | null;
  /**
   * When its deliveries started failing: the first failed attempt since its last delivered one (null while it
   * delivers). Still failing WEBHOOK_DISABLE_AFTER_DAYS later, it is disabled.
   */
  readonly failingSince: string | null;
}

/** One delivery of one event to one endpoint. `id` is the `webhook-id`, the same on every attempt. */
export interface StoredWebhookDelivery {
  readonly creatorId: string;
  readonly endpointId: string;
  readonly id: string;
  readonly event: WebhookEventType;
  /** The exact body sent (JSON of `{type, timestamp, data}`), signed anew at each attempt. */
  readonly payload: string;
  readonly status: WebhookDeliveryStatus;
  readonly attempts: number;
  readonly lastStatusCode: number | null;
  /** While pending: when the next attempt is due (the due index); null once delivered or failed. */
  readonly nextAttemptAt: string | null;
  readonly createdAt: string;
}

export interface WebhookEndpointRepository {
  /** Writes the endpoint and takes a place below `max` in one transaction; 'limit' (nothing written) at the cap. */
  create(endpoint: StoredWebhookEndpoint, max: number): Promise<'created' | 'limit'>;
  /** The creator's endpoints, newest first (one Query). */
  list(creatorId: string): Promise<StoredWebhookEndpoint[]>;
  get(creatorId: string, endpointId: string): Promise<StoredWebhookEndpoint | undefined>;
  /** Deletes the endpoint and gives its place back; false when the creator has no such endpoint. */
  remove(creatorId: string, endpointId: string): Promise<boolean>;
  /** A failed attempt: sets `failingSince` to `at` unless it is set already (the first failure counts). */
  markFailing(endpoint: StoredWebhookEndpoint, at: string): Promise<void>;
  /** A delivered attempt: clears `failingSince`. */
  markDelivering(endpoint: StoredWebhookEndpoint): Promise<void>;
  /**
   * Disables an endpoint still enabled and failing since the `failingSince` read, with its creator's notice queued in
   * the same transaction: true for the one caller that did it, so the creator is emailed once.
   */
  disable(endpoint: StoredWebhookEndpoint, at: string, notice: QueuedMail | undefined): Promise<boolean>;
  /** Enables an endpoint again, its failures forgotten; undefined when the creator has no such endpoint. */
  enable(creatorId: string, endpointId: string): Promise<StoredWebhookEndpoint | undefined>;
}

export interface WebhookEndpointDeps {
  readonly endpoints: WebhookEndpointRepository;
  readonly cipher: SecretCipher;
  readonly clock: Clock;
  readonly ids: Ids;
  /** 24 to 32 random bytes, base64 (crypto.randomBytes in the composition root). */
  readonly randomSecret: () => string;
  /** The local cloud's `http://127.0.0.1:<port>` exception (config WEBHOOK_ALLOW_LOCAL_HTTP). */
  readonly allowLocalHttp: boolean;
}

/** One signed POST to an endpoint, as the delivery adapter makes it. */
export interface WebhookRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * What became of one POST: `answered` with the receiver's status (2xx = delivered), `refused` before any connection
 * (the URL or an address it resolves to is not allowed: the SSRF guard), or `unreachable` (DNS, connection, TLS,
 * the 10 s timeout).
 */
export type WebhookAnswer =
  | { readonly kind: 'answered'; readonly status: number }
  | { readonly kind: 'refused'; readonly reason: string }
  | { readonly kind: 'unreachable'; readonly reason: string };

/** The HTTP call of a delivery (adapters/webhook-http.ts): SSRF-guarded, no redirects, 10 s, a few KB of answer read. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookAnswer>;
}

/** What an attempt changes on a claimed delivery. */
export interface DeliveryOutcome {
  readonly status: WebhookDeliveryStatus;
  readonly attempts: number;
  readonly lastStatusCode: number | null;
  readonly nextAttemptAt: string | null;
}

export interface WebhookDeliveryRepository {
  /** Puts each delivery unless it already exists (a condition per item): answers those written now, never one twice. */
  enqueue(deliveries: readonly StoredWebhookDelivery[]): Promise<StoredWebhookDelivery[]>;
  /**
   * Claims a pending delivery before its attempt: moves its next attempt from what was read to `leaseUntil` with a
   * condition, so two workers never send it at once (a worker that dies leaves it due again at `leaseUntil`).
   * Undefined when another has it or it is no longer pending.
   */
  claim(delivery: StoredWebhookDelivery, leaseUntil: string): Promise<StoredWebhookDelivery | undefined>;
  /** Records the attempt on a delivery still under this claim; false when the claim was lost (nothing written). */
  settle(claimed: StoredWebhookDelivery, outcome: DeliveryOutcome): Promise<boolean>;
  /** Pending deliveries whose next attempt is due by `now`, earliest first (the due index). */
  due(now: string, limit: number): Promise<StoredWebhookDelivery[]>;
  get(endpointId: string, deliveryId: string): Promise<StoredWebhookDelivery | undefined>;
  /** An endpoint's deliveries, newest first, a page at a time. */
  page(endpointId: string, cursor: string | undefined, limit: number): Promise<{ items: StoredWebhookDelivery[]; nextCursor: string | null }>;
  /** Retry now: a pending or failed delivery made pending and due at `at`; undefined when it is delivered. */
  requeue(delivery: StoredWebhookDelivery, at: string): Promise<StoredWebhookDelivery | undefined>;
}

export interface WebhookDeliveryDeps {
  readonly endpoints: Pick<WebhookEndpointRepository, 'get' | 'markFailing' | 'markDelivering' | 'disable'>;
  readonly deliveries: WebhookDeliveryRepository;
  readonly cipher: SecretCipher;
  readonly sender: WebhookSender;
  readonly clock: Clock;
  readonly ids: Ids;
  /** The creator's email, for the notice of a disabled endpoint. */
  readonly users: Pick<UserRepository, 'getUser'>;
  /** The app's origin, for the notice's link to the Developers page. */
  readonly appOrigin: string;
  /** Replaces the first retry's wait (the local cloud's tests; config WEBHOOK_FIRST_RETRY_DELAY_S). */
  readonly firstRetryDelayS?: number;
}
