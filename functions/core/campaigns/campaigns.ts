import { randomBytes } from 'node:crypto';
import type { AuditActor } from '#contracts/audit.ts';
import {
  automationIds,
  SEND_RATE_SHARE,
  SES_BATCH_MAX,
  templateIds,
  type AutomationId,
  type CampaignList,
  type CampaignQueued,
  type CampaignRecipient,
  type CampaignSummary,
  type EmailAutomation,
  type EmailTemplate,
  type SaveTemplateBody,
  type SendCampaignBody,
  type TemplateId,
} from '#contracts/campaigns.ts';
import { auditLine } from '#core/admin/audit.ts';
import { MailRefusedError, ValidationError } from '#core/errors.ts';
import type { JobStarter } from '#core/campaigns/ports.ts';
import { firstSlice, type SliceWork } from '#core/jobs/slices.ts';
import type { BulkEntry, BulkMailer, CampaignRepository, Clock, Ids, LeaderSettingsRepository, OutboxEmail, SecretCipher, StoredCampaign, UserRepository } from '#core/ports.ts';
import { automationDefaults, creatorOfList, maskedEmail, renderMessage, templateDefaults, unsubscribeToken, verifyUnsubscribeToken, type UnsubscribeList } from '#core/campaigns/email-content.ts';

/**
 * Email campaigns (issue 11): an admin queues one (202 at once); the campaign sender job sends it in the background,
 * in SES batches of at most 50 destinations paced under the account's send rate, skipping unsubscribed, suppressed
 * and disabled addresses, each message with its own one-click unsubscribe link. Each batch is recorded on its number,
 * so a sender that stops (timeout, crash) is resumed where the last recorded batch ended, by the next slice of its run
 * (the job engine, decision 0033: campaignSenderWork) or by the next scheduled run.
 */

/** The audience segments of each recipient group, read one after the other (data/campaigns.ts reads each). */
export const segmentsOf: Record<CampaignRecipient, readonly string[]> = {
  all: ['role:admin', 'role:creator', 'role:leader', 'role:learner'],
  creators: ['role:creator'],
  learners: ['role:learner'],
  leaders: ['role:leader'],
  trial: ['subscription:trialing'],
  subscribed: ['subscription:trialing', 'subscription:active'],
};

/** The newest campaigns the Analytics tab lists. */
export const CAMPAIGN_LIST_LIMIT = 50;
/** The sender stops taking batches when its run has less than this left, and the next run continues. */
export const STOP_MARGIN_MS = 8_000;
/**
 * How long a sender holds a campaign past its last recorded batch: longer than a batch takes, shorter than the job's
 * minute, so a run that stopped (paused, timed out, crashed) leaves the campaign free for the next one.
 */
export const LEASE_MS = 45_000;
/** The context the unsubscribe key is sealed under (the envelope cipher's encryption context). */
export const UNSUBSCRIBE_KEY_CONTEXT = 'platform:unsubscribe';

export const summaryOf = (c: StoredCampaign): CampaignSummary => ({
  id: c.id,
  subject: c.subject,
  recipient: c.recipient,
  template: c.template,
  status: c.status,
  recipientCount: c.recipientCount,
  sent: c.sent,
  failed: c.failed,
  skipped: c.skipped,
  createdAt: c.createdAt,
  completedAt: c.completedAt,
});

/** The job that sends campaigns (functions/routes.ts `jobs`): a sliced job on its own queue (decision 0033). */
export const CAMPAIGN_SENDER_JOB = 'campaign-sender';

/**
 * The run a queued campaign starts at once (its first slice on the sender's queue), named by the campaign: a retried
 * POST within the queue's deduplication window starts no second run (and one that did would find the campaign held).
 */
export const campaignRunSlice = (campaignId: string): ReturnType<typeof firstSlice> => firstSlice(CAMPAIGN_SENDER_JOB, `${CAMPAIGN_SENDER_JOB}@${campaignId}`);

/**
 * POST /api/admin/emails: the campaign is stored as queued and answered at once; the sender job, started at once,
 * sends it. The admin's `campaign-sent` audit line (named by the campaign) is written in the campaign's transaction.
 */
export const queueCampaign = async (
  deps: { campaigns: CampaignRepository; clock: Clock; ids: Ids; sender: JobStarter },
  body: SendCampaignBody,
  requestKey: string | undefined,
  actor: AuditActor,
): Promise<CampaignQueued> => {
  const recipientCount = await deps.campaigns.audienceSize(segmentsOf[body.recipient]);
  const id = deps.ids.newId();
  const createdAt = deps.clock.now().toISOString();
  const audit = auditLine(deps, { id, at: createdAt, actor, action: 'campaign-sent', target: { kind: 'campaign', id }, details: { subject: body.subject, recipient: body.recipient } });
  const campaign = await deps.campaigns.create(
    {
      id,
      ...body,
      status: 'queued',
      recipientCount,
      sent: 0,
      failed: 0,
      skipped: 0,
      createdAt,
      completedAt: null,
      batch: 0,
      segment: 0,
      position: null,
      leaseUntil: null,
      handedOff: null,
    },
    requestKey,
    audit,
  );
  // The sender starts now rather than at its next scheduled run; if it cannot be started, that run (within the
  // minute) sends the campaign all the same, so the answer does not wait on it or fail for it.
  await deps.sender.start(campaign.id).catch(() => undefined);
  return { campaignId: campaign.id, recipientCount: campaign.recipientCount };
};

/** GET /api/admin/emails. */
export const listCampaigns = async (deps: { campaigns: CampaignRepository }): Promise<CampaignList> => {
  const { items, totals } = await deps.campaigns.list(CAMPAIGN_LIST_LIMIT);
  return { items: items.map(summaryOf), totals };
};

/** GET /api/admin/email-templates: each built-in template, as the admin last saved it. */
export const listTemplates = async (deps: { campaigns: CampaignRepository }): Promise<{ items: EmailTemplate[] }> => {
  const overrides = await deps.campaigns.templateOverrides();
  return {
    items: templateIds.map((id) => {
      const saved = overrides.get(id);
      const { name, description, subject, content } = templateDefaults[id];
      return { id, name, description, subject: saved?.subject ?? subject, content: saved?.content ?? content, updatedAt: saved?.updatedAt ?? null };
    }),
  };
};

/** One template as it stands (the automations send it). */
export const templateFor = async (deps: { campaigns: CampaignRepository }, id: TemplateId): Promise<EmailTemplate> =>
  (await listTemplates(deps)).items.find((t) => t.id === id)!;

/** PUT /api/admin/email-templates/{templateId}. */
export const saveTemplate = async (deps: { campaigns: CampaignRepository; clock: Clock }, id: TemplateId, body: SaveTemplateBody): Promise<EmailTemplate> => {
  await deps.campaigns.saveTemplate(id, { ...body, updatedAt: deps.clock.now().toISOString() });
  return templateFor(deps, id);
};

/** GET /api/admin/email-automations: each automation with its on/off state (on until switched off) and count. */
export const listAutomations = async (deps: { campaigns: CampaignRepository }): Promise<{ items: EmailAutomation[] }> => {
  const settings = await deps.campaigns.automationSettings();
  return {
    items: automationIds.map((id) => ({ id, ...automationDefaults[id], enabled: settings.get(id)?.enabled ?? true, sent: settings.get(id)?.sent ?? 0 })),
  };
};

/** PUT /api/admin/email-automations/{automationId}. */
export const saveAutomation = async (deps: { campaigns: CampaignRepository }, id: AutomationId, enabled: boolean): Promise<EmailAutomation> => {
  await deps.campaigns.saveAutomation(id, enabled);
  return (await listAutomations(deps)).items.find((a) => a.id === id)!;
};

/** The unsubscribe HMAC key: 32 random bytes, stored sealed, made by whoever needs it first. */
export const unsubscribeKey = async (deps: { campaigns: Pick<CampaignRepository, 'unsubscribeKey'>; cipher: SecretCipher }): Promise<Uint8Array> => {
  const sealed = await deps.campaigns.unsubscribeKey(() => deps.cipher.encrypt(randomBytes(32).toString('base64'), UNSUBSCRIBE_KEY_CONTEXT));
  return Buffer.from(await deps.cipher.decrypt(sealed, UNSUBSCRIBE_KEY_CONTEXT), 'base64');
};

const badLink = () => new ValidationError('This unsubscribe link is not valid. Use the link of an email you received.');

/**
 * The address and list a token names, or a 400. Only a sender makes the key: before any email went out there is none,
 * no token can be valid, and the unsubscribe routes (the page's GET has read-only table access) never write one.
 */
const verifiedToken = async (deps: { campaigns: CampaignRepository; cipher: SecretCipher }, token: string): Promise<{ email: string; list: UnsubscribeList }> => {
  const noKeyYet = new Error('no unsubscribe key yet');
  const sealed = await deps.campaigns.unsubscribeKey(() => Promise.reject(noKeyYet)).catch((error: unknown) => {
    if (error === noKeyYet) return undefined;
    throw error;
  });
  const verified = sealed && verifyUnsubscribeToken(Buffer.from(await deps.cipher.decrypt(sealed, UNSUBSCRIBE_KEY_CONTEXT), 'base64'), token);
  if (!verified) throw badLink();
  return verified;
};

/** The address of a valid token (masked) and what it unsubscribes from, for the confirmation page. A changed token is a 400. */
export const unsubscribeTarget = async (deps: { campaigns: CampaignRepository; cipher: SecretCipher }, token: string): Promise<{ masked: string; list: UnsubscribeList }> => {
  const { email, list } = await verifiedToken(deps, token);
  return { masked: maskedEmail(email), list };
};

export interface UnsubscribeDeps {
  campaigns: CampaignRepository;
  cipher: SecretCipher;
  clock: Clock;
  users: Pick<UserRepository, 'getUserIdByEmail'>;
  leaderSettings: Pick<LeaderSettingsRepository, 'stopWeeklyReport'>;
  /** A creator's daily digest of comments turned off (the profile's setting; false when there is no profile). */
  commentDigest: (userId: string, on: false) => Promise<unknown>;
  /** A creator's own emails refused (their sequences: issue 33). */
  schools: { unsubscribe(creatorId: string, email: string, at: string): Promise<void> };
}

/**
 * POST /api/unsubscribe: a campaigns token puts the address on the suppression list; a weekly-report token turns the
 * leader's weekly team email off (their other email is untouched), a comment-digest token the creator's daily digest
 * of comments; a school token stops that creator's sequences for the address (issue 33). Once: a repeat is the same
 * answer. Answers which.
 */
export const unsubscribe = async (deps: UnsubscribeDeps, token: string): Promise<UnsubscribeList> => {
  const { email, list } = await verifiedToken(deps, token);
  const at = deps.clock.now().toISOString();
  const creatorId = creatorOfList(list);
  if (list === 'campaigns') await deps.campaigns.suppress(email, 'unsubscribed', at);
  else if (creatorId !== undefined) await deps.schools.unsubscribe(creatorId, email, at);
  else {
    const userId = await deps.users.getUserIdByEmail(email);
    if (userId && list === 'comment-digest') await deps.commentDigest(userId, false);
    else if (userId) await deps.leaderSettings.stopWeeklyReport(userId, at);
  }
  return list;
};

export interface SenderDeps {
  campaigns: CampaignRepository;
  mailer: BulkMailer;
  cipher: SecretCipher;
  clock: Clock;
  sleep: (ms: number) => Promise<void>;
  appOrigin: string;
  /** Milliseconds left in this run (Lambda's getRemainingTimeInMillis). */
  remainingMs: () => number;
}

/** The headers that make one-click unsubscribe work in mail clients (RFC 8058) for one address. */
export const unsubscribeHeaders = (url: string) => [
  { name: 'List-Unsubscribe', value: `<${url}>` },
  { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
];

export const unsubscribeUrl = (appOrigin: string, key: Uint8Array, email: string, list: UnsubscribeList = 'campaigns'): string =>
  `${appOrigin}/api/unsubscribe?token=${encodeURIComponent(unsubscribeToken(key, email, list))}`;

/** Tries of one batch SES refuses outright (nothing sent) before the run gives up on it (the next run goes on). */
export const REFUSED_TRIES = 5;
const REFUSED_BACKOFF_MS = 250;
/** Tries of a recipient SES throttled (`ACCOUNT_THROTTLED`, `TRANSIENT_FAILURE`: not sent) before it counts as failed. */
export const THROTTLED_TRIES = 5;
/** SES SendBulkEmail calls one wave has in flight at most (issue 28: at the account's rate, several at once). */
export const MAX_IN_FLIGHT = 10;
/** A destination's status that says SES did not send it for now: sent again (alone) after a pause. */
const THROTTLED = /ACCOUNT_THROTTLED|TRANSIENT_FAILURE|Throttl/i;

/** SES calls of 50 in flight per wave: what SEND_RATE_SHARE of the rate sends in a second, 1 to MAX_IN_FLIGHT. */
export const callsInFlight = (maxSendRate: number): number => Math.min(MAX_IN_FLIGHT, Math.max(1, Math.floor((maxSendRate * SEND_RATE_SHARE) / SES_BATCH_MAX)));

/**
 * A destination's status that says SES did not send it because the account's 24-hour quota is spent (other platform
 * mail spent it mid-wave): not sent, owed to the recipient once the quota is back (the campaign pauses).
 */
const QUOTA_EXCEEDED = /ACCOUNT_DAILY_QUOTA_EXCEEDED|Daily message quota exceeded/i;

/** One destination's outcome: sent (`ok`), failed for good, or refused at the daily quota (`owed`: not sent, sent later). */
type Destination = { to: string; ok: boolean; owed?: boolean };

/**
 * One call's destinations until each is sent, refused for good, refused at the daily quota (owed, not tried again
 * now), or throttled THROTTLED_TRIES times: the throttled ones (SES sent them not) go again alone after a growing
 * pause; the others never go twice.
 */
const sendWithRetries = async (deps: SenderDeps, message: { subject: string; text: string; html: string }, entries: BulkEntry[]): Promise<Destination[]> => {
  const final: Destination[] = [];
  let pending = entries;
  for (let attempt = 1; pending.length > 0; attempt++) {
    const results = await sendBatch(deps, message, pending);
    const refused = (pattern: RegExp) => new Set(results.filter((r) => !r.ok && pattern.test((r as { error?: string }).error ?? '')).map((r) => r.to));
    const owed = refused(QUOTA_EXCEEDED);
    const throttled = refused(THROTTLED);
    for (const r of results) {
      if (owed.has(r.to)) final.push({ to: r.to, ok: false, owed: true });
      else if (!throttled.has(r.to) || attempt >= THROTTLED_TRIES) final.push({ to: r.to, ok: r.ok });
    }
    if (attempt >= THROTTLED_TRIES) break;
    pending = pending.filter((e) => throttled.has(e.to) && !owed.has(e.to));
    if (pending.length > 0) await deps.sleep(REFUSED_BACKOFF_MS * 2 ** (attempt - 1));
  }
  return final;
};

/**
 * One batch to SES: retried only while SES refuses it outright (MailRefusedError: nothing went), with a growing pause;
 * when the call fails any other way (a timeout, a cut connection) the batch may well have gone, so it counts as sent
 * and is never handed over again: a recipient gets one message, not two.
 */
const sendBatch = async (deps: SenderDeps, message: { subject: string; text: string; html: string }, entries: BulkEntry[]) => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.mailer.sendBulk({ ...message, entries });
    } catch (error) {
      if (!(error instanceof MailRefusedError)) return entries.map((e) => ({ to: e.to, ok: true }));
      if (attempt >= REFUSED_TRIES) throw error;
      await deps.sleep(REFUSED_BACKOFF_MS * 2 ** (attempt - 1));
    }
  }
};

/** SES's rate and what is left of its 24-hour quota, now (no quota port: no daily quota to keep to). */
const accountNow = async (deps: SenderDeps): Promise<{ maxSendRate: number; left24Hours: number }> => {
  const account = deps.mailer.quota ? await deps.mailer.quota() : { maxSendRate: await deps.mailer.maxSendRate(), left24Hours: Number.POSITIVE_INFINITY };
  return { maxSendRate: Math.max(1, account.maxSendRate), left24Hours: Math.max(0, account.left24Hours) };
};

/** What a run did with one campaign: sent it all, stopped for time (`paused`), found it held, or stopped at the quota. */
type CampaignOutcome = 'sent' | 'paused' | 'held' | 'quota';

/**
 * Sends one campaign from where it stands until it is done, the run is nearly out of time, or SES's daily quota is
 * reached. Each wave (a batch number): the next pages of the audience (<= 50 each, as many as callsInFlight allows and
 * the quota left takes), minus the disabled and the suppressed, noted as handed off, sent as that many bulk sends at
 * once (throttled recipients again alone), recorded on its number; then a pause that keeps the pace at
 * SEND_RATE_SHARE of SES's rate. A wave an earlier run handed off but did not record went out already (or may have):
 * it is recorded as sent, not sent again.
 */
const sendCampaign = async (deps: SenderDeps, campaign: StoredCampaign, key: Uint8Array, slice: SliceTime): Promise<CampaignOutcome> => {
  const leaseUntil = () => new Date(deps.clock.now().getTime() + LEASE_MS).toISOString();
  if (!(await deps.campaigns.lease(campaign.id, deps.clock.now().toISOString(), leaseUntil(), slice.owner))) return 'held';
  const progress = { batch: campaign.batch };
  try {
    // The quota once the campaign is this run's: what runs before it sent is counted (SES's SentLast24Hours).
    const account = await accountNow(deps);
    const quota = { left: account.left24Hours };
    const outcome = await sendBatches(deps, campaign, key, account.maxSendRate, { leaseUntil, progress, quota, slice });
    // Stopped for time: free for the next run at once (the job starts it), not when the lease ends.
    if (outcome === 'paused') await deps.campaigns.release(campaign.id, progress.batch).catch(() => undefined);
    return outcome;
  } catch (error) {
    await release(deps, campaign.id, progress.batch);
    throw error;
  }
};

/** Pause between two tries to free a campaign while the database is down. */
export const RELEASE_RETRY_MS = 1_000;

/**
 * Frees a campaign whose run failed, so the next run (the job's retry) may start at once rather than when the lease
 * ends. If the database is what failed (killed, restarting), this fails too: it is tried again each second while the
 * run has time, so sending goes on as soon as the database is back; past that, the lease ends by itself.
 */
const release = async (deps: SenderDeps, campaignId: string, batch: number): Promise<void> => {
  for (;;) {
    try {
      await deps.campaigns.release(campaignId, batch);
      return;
    } catch {
      if (deps.remainingMs() < STOP_MARGIN_MS + RELEASE_RETRY_MS) return;
      await deps.sleep(RELEASE_RETRY_MS);
    }
  }
};

/** One destination of a campaign wave: its address with its own one-click unsubscribe link. */
const entryOf = (deps: SenderDeps, key: Uint8Array, email: string): BulkEntry => {
  const url = unsubscribeUrl(deps.appOrigin, key, email);
  return { to: email, headers: unsubscribeHeaders(url), data: { unsubscribeUrl: url } };
};

/** Up to `pages` pages of the audience from `cursor`, no more addresses than `room`, minus the disabled and the suppressed. */
const audienceWave = async (deps: SenderDeps, segments: readonly string[], from: { segment: number; position: string | null }, pages: number, room: number) => {
  const calls: string[][] = [];
  let cursor = from;
  let planned = 0;
  let skipped = 0;
  while (calls.length < pages && cursor.segment < segments.length && planned < room) {
    const page = await deps.campaigns.audiencePage(segments[cursor.segment]!, cursor.position, Math.min(SES_BATCH_MAX, room - planned));
    const suppressed = await deps.campaigns.suppressed(page.people.map((p) => p.email.toLowerCase()));
    const to = page.people.filter((p) => !p.disabled && !suppressed.has(p.email.toLowerCase()));
    skipped += page.people.length - to.length;
    cursor = page.next ? { segment: cursor.segment, position: page.next } : { segment: cursor.segment + 1, position: null };
    if (to.length === 0) continue;
    planned += to.length;
    calls.push(to.map((p) => p.email));
  }
  return { calls, planned, skipped, next: cursor };
};

/**
 * The recipients SES refused at its quota, first: up to a wave's calls and the quota left, minus those suppressed since
 * (a recipient who unsubscribed in between is skipped); the audience cursor stays where it is.
 */
const owedWave = async (deps: SenderDeps, owed: readonly string[], calls: number, room: number) => {
  const taken = owed.slice(0, Math.min(calls * SES_BATCH_MAX, room));
  const suppressed = await deps.campaigns.suppressed(taken.map((e) => e.toLowerCase()));
  const to = taken.filter((e) => !suppressed.has(e.toLowerCase()));
  const chunks: string[][] = [];
  for (let i = 0; i < to.length; i += SES_BATCH_MAX) chunks.push(to.slice(i, i + SES_BATCH_MAX));
  return { calls: chunks, planned: to.length, skipped: taken.length - to.length, owedTaken: taken.length };
};

const sendBatches = async (
  deps: SenderDeps,
  campaign: StoredCampaign,
  key: Uint8Array,
  rate: number,
  run: { leaseUntil: () => string; progress: { batch: number }; quota: { left: number }; slice: SliceTime },
): Promise<CampaignOutcome> => {
  const segments = segmentsOf[campaign.recipient];
  const message = renderMessage(campaign.subject, campaign.content);
  const { leaseUntil, progress, quota, slice } = run;
  const inFlight = callsInFlight(rate);
  let { batch, segment, position, handedOff } = campaign;
  let owed = campaign.owed ?? [];
  while (segment < segments.length || owed.length > 0) {
    if (slice.stop()) return 'paused';
    slice.waves += 1;
    const started = deps.clock.now().getTime();
    let results: Destination[] = [];
    let skipped: number;
    let next: { segment: number; position: string | null };
    let handed = 0;
    let owedTaken: number;
    if (handedOff?.batch === batch && handedOff.segment !== undefined) {
      // Handed off by a run that stopped before recording it: it went (or may have). Recorded as it was planned.
      results = Array.from({ length: handedOff.count }, () => ({ to: '', ok: true }));
      skipped = handedOff.skipped ?? 0;
      owedTaken = handedOff.owedTaken ?? 0;
      next = { segment: handedOff.segment, position: handedOff.position ?? null };
    } else {
      if (quota.left <= 0) {
        await deps.campaigns.pauseForQuota(campaign.id);
        return 'quota';
      }
      // The wave: the owed first, else up to `inFlight` pages; no more addresses than the quota leaves.
      // (A wave an older sender handed off without its plan was one page: that page alone is read again.)
      const wave =
        owed.length > 0
          ? { ...(await owedWave(deps, owed, inFlight, quota.left)), next: { segment, position } }
          : { ...(await audienceWave(deps, segments, { segment, position }, handedOff?.batch === batch ? 1 : inFlight, quota.left)), owedTaken: 0 };
      ({ skipped, next, owedTaken } = wave);
      if (handedOff?.batch === batch) {
        // Handed off by an older sender (no plan kept): its first page went; this wave is that page.
        results = Array.from({ length: handedOff.count }, () => ({ to: '', ok: true }));
      } else if (wave.planned > 0) {
        if (!(await deps.campaigns.handOff(campaign.id, batch, wave.planned, { ...next, skipped, ...(owedTaken > 0 ? { owedTaken } : {}) }))) return 'held';
        handed = wave.planned;
        try {
          results = (await Promise.all(wave.calls.map((emails) => sendWithRetries(deps, message, emails.map((email) => entryOf(deps, key, email)))))).flat();
        } catch (error) {
          await deps.campaigns.takeBack(campaign.id, batch);
          throw error;
        }
      }
    }
    // Refused at the daily quota: not sent, owed (after those still owed); the campaign pauses at its next wave.
    const refusedAtQuota = results.filter((r) => r.owed).map((r) => r.to);
    const stillOwed = [...owed.slice(owedTaken), ...refusedAtQuota];
    const sent = results.filter((r) => r.ok).length;
    const done = next.segment >= segments.length && stillOwed.length === 0;
    const recorded = await deps.campaigns.recordBatch(campaign.id, batch, {
      sent,
      failed: results.length - sent - refusedAtQuota.length,
      skipped,
      ...next,
      ...(stillOwed.length > 0 ? { owed: stillOwed } : {}),
      done,
      at: deps.clock.now().toISOString(),
      leaseUntil: leaseUntil(),
    });
    if (!recorded) return 'held';
    // SES says the quota is spent, whatever GetAccount said at the start of the run (other mail spent it meanwhile).
    quota.left = refusedAtQuota.length > 0 ? 0 : quota.left - handed;
    batch += 1;
    progress.batch = batch;
    handedOff = null;
    owed = stillOwed;
    ({ segment, position } = next);
    const minimumMs = (handed / (rate * SEND_RATE_SHARE)) * 1000;
    const waitMs = minimumMs - (deps.clock.now().getTime() - started);
    if (!done && quota.left > 0 && waitMs > 0) await deps.sleep(waitMs);
  }
  return 'sent';
};

/** Automation emails taken off the outbox per run (one bulk send per automation). */
export const OUTBOX_BATCH = SES_BATCH_MAX;

/**
 * The automations' emails waiting in the outbox (queued with what caused them: a self sign-up queues the welcome): each
 * taken off once, then sent with its automation's template when the automation is on and the address is not
 * suppressed, with the same unsubscribe link as campaigns. One bulk send per automation, as a campaign's batch: a send SES
 * refuses outright is tried again, and still refused, put back in the outbox with the others not yet sent; one whose
 * answer was lost counts as sent. So each email goes once, or (its answer lost and SES having failed it) not at all.
 * `beforeSend` paces the bulk sends (the mail sender job: core/mail/mail-sender.ts).
 */
export const sendAutomationEmails = async (
  deps: SenderDeps,
  opts: { beforeSend?: (count: number) => Promise<void> } = {},
): Promise<{ sent: number; dropped: number }> => {
  // Owed by now: every writer queues an email at its own moment; one written for later waits for it.
  const waiting = await deps.campaigns.outbox(OUTBOX_BATCH, deps.clock.now().toISOString());
  if (waiting.length === 0) return { sent: 0, dropped: 0 };
  const key = await unsubscribeKey(deps);
  const settings = await deps.campaigns.automationSettings();
  const claimed: OutboxEmail[] = [];
  for (const message of waiting) if (await deps.campaigns.claimOutbox(message)) claimed.push(message);
  const suppressed = await deps.campaigns.suppressed(claimed.map((m) => m.email.toLowerCase()));
  let sent = 0;
  const done = new Set<string>();
  for (const id of automationIds) {
    const due = claimed.filter((m) => m.automation === id && !suppressed.has(m.email.toLowerCase()));
    if (due.length > 0 && settings.get(id)?.enabled !== false) {
      await opts.beforeSend?.(due.length);
      sent += await sendAutomation(deps, { id, due, key, putBack: () => claimed.filter((m) => !done.has(m.automation)) });
    }
    done.add(id);
  }
  return { sent, dropped: claimed.length - sent };
};

/** One automation's due emails in one bulk send: how many went. */
const sendAutomation = async (deps: SenderDeps, input: { id: AutomationId; due: OutboxEmail[]; key: Uint8Array; putBack: () => OutboxEmail[] }): Promise<number> => {
  const template = await templateFor(deps, automationDefaults[input.id].templateId);
  const entries = input.due.map((m) => {
    const url = unsubscribeUrl(deps.appOrigin, input.key, m.email);
    return { to: m.email, headers: unsubscribeHeaders(url), data: { unsubscribeUrl: url } };
  });
  let results: { ok: boolean }[];
  try {
    results = await sendBatch(deps, renderMessage(template.subject, template.content), entries);
  } catch (error) {
    // Refused every time (nothing went): back in the outbox for the next run, with the others not yet sent.
    await deps.campaigns.returnToOutbox(input.putBack());
    throw error;
  }
  const ok = results.filter((r) => r.ok).length;
  if (ok > 0) await deps.campaigns.countAutomationSent(input.id, ok);
  return ok;
};

/**
 * When a run (one slice of the sender's run, or a direct call) stops taking waves: once it sent one, when its function
 * nears its end (STOP_MARGIN_MS: a wave with its throttle retries fits in it) or the engine's `timeUp` says so.
 * `owner` names the run holding the leases it takes.
 */
interface SliceTime {
  stop: () => boolean;
  waves: number;
  owner: string | undefined;
}

/**
 * The campaign sender: every queued or unfinished campaign, oldest first, while the run has time and SES's daily
 * quota lasts (read afresh each run: GetAccount's Max24HourSend - SentLast24Hours). At the quota each unfinished
 * campaign shows `paused`, and the first run that finds quota again goes on (SES's window rolls: within 24 hours).
 * `paused` counts campaigns left for lack of time, `quota` those at the quota; `more`: the run stopped for time with
 * a campaign unfinished or not reached (its next slice goes on at once).
 * `opts.timeUp`: the job engine's clock (asked before each wave but a slice's first); `opts.owner`: the run, whose
 * later slices may take back a campaign an earlier one of the same run still holds (killed before it freed it).
 */
export const sendPendingCampaigns = async (
  deps: SenderDeps,
  opts: { timeUp?: () => boolean; owner?: string } = {},
): Promise<{ sent: number; paused: number; held: number; quota: number; more: boolean }> => {
  const outcome = { sent: 0, paused: 0, held: 0, quota: 0, more: false };
  const slice: SliceTime = {
    waves: 0,
    owner: opts.owner,
    // At least one wave per slice, whatever the clock says: a chain always moves (and a slice starts with its whole time).
    stop: () => {
      const late = deps.remainingMs() < STOP_MARGIN_MS;
      return slice.waves > 0 && (late || (opts.timeUp?.() ?? false));
    },
  };
  const pending = await deps.campaigns.pending();
  if (pending.length === 0) return outcome;
  const key = await unsubscribeKey(deps);
  const spent = (await accountNow(deps)).left24Hours <= 0;
  for (const [n, id] of pending.entries()) {
    const campaign = await deps.campaigns.get(id);
    if (!campaign || campaign.status === 'sent') continue;
    // Paused, and still no quota: left as it is (no lease taken, its status stays `paused`).
    if (spent && campaign.status === 'paused') {
      outcome.quota += 1;
      continue;
    }
    const done = await sendCampaign(deps, campaign, key, slice);
    outcome[done] += 1;
    if (done === 'paused' || (n < pending.length - 1 && slice.stop())) {
      outcome.more = true;
      break;
    }
  }
  return outcome;
};

/**
 * The campaign sender on the job engine (decision 0033): one slice sends waves while its time lasts; the cursor of each
 * campaign is on the campaign item (its recorded batch, segment and position), so the slice's continuation only says
 * "go on" (the campaign it stopped in). A run ends when every pending campaign is sent, at the quota (`paused`: the
 * every-minute schedule's runs resume it once SES's window has rolled on) or held by another run.
 */
export const campaignSenderWork =
  (deps: SenderDeps): SliceWork<{ sent: number; stopped: number; held: number; quota: number }> =>
  async (slice, timeUp) => {
    const outcome = await sendPendingCampaigns(deps, { timeUp, owner: slice.run });
    const counts = { sent: outcome.sent, stopped: outcome.paused, held: outcome.held, quota: outcome.quota };
    return outcome.more ? { cursor: String(slice.seq + 1), counts } : { counts };
  };
