import type { AutomationId, CampaignList, CampaignRecipient, CampaignStatus, CampaignTemplate } from '#contracts/campaigns.ts';
import type { PageRequest, Paged, Role } from '#contracts/common.ts';
import type { Course, Lesson, LessonRecord } from '#contracts/courses.ts';
import type { Credits, CreditTransaction } from '#contracts/credits.ts';
import type { MeResponse } from '#contracts/me.ts';
import type { PlanType } from '#contracts/plans.ts';
import type { AuditLine } from '#core/audit-line.ts';

/**
 * The interfaces core needs. Adapters in functions/data and functions/adapters implement them.
 * Domain shapes come from the contracts (each shape is declared once): a user is what GET /api/me answers, a credit
 * account is the credits answer's stored fields plus its owner.
 */

export interface Clock {
  now(): Date;
}

export interface Ids {
  /** A new, unique, roughly time-ordered id. */
  newId(): string;
}

/** A profile: what GET /api/me answers, and `disabled` once an admin turned the account off (absent: enabled). */
/** `deletingAt`: the person asked for their account to be deleted (DELETE /api/me); the deletion job is under way. */
/** `commentDigest: false`: a creator who turned off the daily digest of their learners' comments (absent: on). */
export type User = MeResponse & { disabled?: boolean; deletingAt?: string; commentDigest?: boolean };

export interface UserRepository {
  getUser(id: string): Promise<User | undefined>;
  /** The profiles of these ids that exist, in one batch read (at most 100 ids). */
  getUsers(ids: string[]): Promise<User[]>;
  getUserIdByEmail(email: string): Promise<string | undefined>;
  /**
   * Writes the profile, reserves the email and moves the platform counters in one transaction; `welcome` also queues
   * the welcome automation's email (self sign-ups) in it, and `audit` an admin's audit line (an account an admin
   * created). Throws ConflictError when the id or email is taken.
   */
  createUser(user: User, options?: { welcome?: boolean; audit?: AuditLine }): Promise<void>;
  /** One page of the users of a role, newest first (gsi1 `ROLE#<role>`); `cursor` as a previous page handed out. */
  listByRole(role: Role, cursor: string | undefined, limit: number): Promise<{ items: User[]; nextCursor: string | null }>;
  /**
   * Sets the profile's `disabled` flag and moves `users_disabled` with it, and puts `audit` (the admin's line), in one
   * transaction; a repeat changes nothing and writes no line.
   */
  setDisabled(id: string, disabled: boolean, audit?: AuditLine): Promise<void>;
  /**
   * Moves the profile from role `from` to `to` (its role index too) and the role counters with it, with `audit` in the
   * same transaction; nothing (and no line) if it is not in `from`.
   */
  changeRole(id: string, from: Role, to: Role, audit?: AuditLine): Promise<void>;
}

/** The identity provider (Cognito). */
export interface Directory {
  /** Creates a sign-in account; with `password` it is permanent, otherwise the provider sends nothing and the caller invites. Returns the user's stable id (sub) and username. */
  createAccount(input: { email: string; password?: string; temporaryPassword?: string }): Promise<{ id: string; username: string }>;
  addToGroup(username: string, role: Role): Promise<void>;
  /** Off: the account can neither sign in nor refresh a session, and every session it had is signed out. On: it can again. */
  setSignInEnabled(userId: string, enabled: boolean): Promise<void>;
  /** Moves the account from one role's group to another's and signs it out everywhere, so its next sign-in carries the new role. */
  changeGroup(userId: string, from: Role, to: Role): Promise<void>;
  /** Whether the account's email is verified (Cognito's `email_verified`); false for an unknown account. */
  emailVerified(userId: string): Promise<boolean>;
}

/* ---------- Billing and credits ---------- */

/** A subscription as Stripe reports it, kept per user. `status` is Stripe's own word (trialing, active, ...). */
export interface StoredSubscription {
  userId: string;
  subscriptionId: string;
  customerId: string;
  status: string;
  tier: PlanType | null;
  trialEnd: string | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  /** Stripe `event.created` (epoch seconds) and tie-break rank of the last applied event: older ones are ignored. */
  lastEventAt: number;
  lastEventRank: number;
  updatedAt: string;
  /** Sticky: the user has trialed or paid for a plan at least once, so no further free trial (one per creator). */
  hasSubscribed: boolean;
}

export type CreditAccount = Pick<Credits, 'creditsRemaining' | 'creditsUsed' | 'monthlyAllocation' | 'planType' | 'billingPeriodEnd'> & {
  userId: string;
};

/** A ledger row: the contract's transaction, with the spender's note. */
export type LedgerEntry = CreditTransaction & { description?: string };

/** Stripe's API, as the product uses it (the Stripe API key is the adapter's business). */
export interface Payments {
  createCustomer(input: { userId: string; email: string }): Promise<string>;
  createCheckoutSession(input: {
    mode: 'subscription' | 'payment';
    customerId: string;
    userId: string;
    priceId: string;
    trialDays?: number;
    successUrl: string;
    cancelUrl: string;
    /** When the hosted page stops accepting payment (Stripe allows 30 minutes to 24 hours; its default is 24 hours). */
    expiresAt?: Date;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }): Promise<{ id: string; url: string }>;
  /** Closes an open Checkout Session so it can no longer be paid; a session already completed or expired is left as it is. */
  expireCheckoutSession(sessionId: string): Promise<void>;
  createPortalSession(input: { customerId: string; returnUrl: string; idempotencyKey: string }): Promise<{ url: string }>;
}

/** Business events worth a metric (CloudWatch EMF in the cloud): counted, never used for decisions. */
export type BusinessMetric = 'SignUp' | 'CheckoutStarted' | 'SubscriptionStateChanged' | 'CreditsSpent' | 'CreditsPurchased' | 'LandingPageGenerated' | 'AiDraftGenerated' | 'OrderUnfulfilled';

export interface Metrics {
  /** Adds `value` (default 1) to the metric, published with the request's other metrics when it ends. */
  record(metric: BusinessMetric, value?: number): void;
}

/** Counter deltas, e.g. { subs_trialing: -1, subs_active: 1 }: moved in the same transaction as the change. */
export type CounterDeltas = Record<string, number>;

export interface CreditGrant {
  account: CreditAccount;
  /** Ledger entry for the grant (its credits are the starting balance). */
  entry: LedgerEntry;
  key: string;
}

/**
 * A creator's one checkout in progress: claimed before Stripe is called, then open with its session until it
 * expires, is paid, or is replaced. At most one per creator, so two checkouts at once never become two subscriptions.
 */
export type OpenCheckout =
  | { status: 'creating'; claimId: string; intent: string; idempotencyKey?: string; claimedAt: string }
  | { status: 'open'; claimId: string; intent: string; idempotencyKey?: string; claimedAt: string; sessionId: string; url: string; expiresAt: string };

export interface BillingRepository {
  getCustomerId(userId: string): Promise<string | undefined>;
  /** Records user <-> customer both ways; a second call for the same pair is a no-op. */
  saveCustomer(userId: string, customerId: string): Promise<void>;
  getUserIdByCustomer(customerId: string): Promise<string | undefined>;
  getSubscription(userId: string): Promise<StoredSubscription | undefined>;
  getOpenCheckout(userId: string): Promise<OpenCheckout | undefined>;
  /**
   * Takes the creator's checkout slot for a new session: only if the slot is free, or still holds `replacing` (the
   * claim id the caller read and decided to replace). 'taken' when another checkout got there first.
   */
  claimCheckout(input: { userId: string; claim: Extract<OpenCheckout, { status: 'creating' }>; replacing?: string }): Promise<'claimed' | 'taken'>;
  /** The claimed slot gets its session (only while the claim is still ours). */
  openCheckout(input: { userId: string; checkout: Extract<OpenCheckout, { status: 'open' }> }): Promise<'opened' | 'lost'>;
  /** Frees the slot if it still holds this claim (a failed Stripe call, a completed or expired session). */
  releaseCheckout(input: { userId: string } & ({ claimId: string } | { sessionId: string })): Promise<void>;
  /** Our record of a top-up's session; a second save of the same session (a retried intent) is a no-op. */
  savePendingPurchase(input: { sessionId: string; userId: string; credits: number; pricePence: number; createdAt: string }): Promise<void>;
  getPendingPurchase(sessionId: string): Promise<{ userId: string; credits: number; status: 'pending' | 'granted' | 'failed' } | undefined>;
  eventSeen(eventId: string): Promise<boolean>;
  /**
   * One transaction: the event record (once), the subscription (only if `before` is still what is stored), the
   * counters and the credit account changes. 'duplicate' when the event was already applied, 'changed' when the
   * stored subscription moved meanwhile (the caller re-reads and decides again).
   */
  applySubscriptionEvent(input: {
    event: { id: string; type: string };
    before: StoredSubscription | undefined;
    after: StoredSubscription;
    counters: CounterDeltas;
    creditGrant?: CreditGrant;
    creditPlan?: { planType: PlanType; monthlyAllocation: number };
    /** An automation email the event owes (the trial-ending reminder), queued with it. */
    outbox?: OutboxEmail;
  }): Promise<'applied' | 'duplicate' | 'changed'>;
  /**
   * One transaction: the event record, the purchase marked granted, the balance and its ledger row. With `openAccount`
   * (the buyer has no credit account any more) the account is created holding the purchase instead of being topped up.
   */
  grantPurchase(input: {
    event: { id: string; type: string };
    sessionId: string;
    userId: string;
    entry: LedgerEntry;
    key: string;
    openAccount?: CreditAccount;
  }): Promise<'applied' | 'duplicate' | 'no-account'>;
  /** One transaction: the event record and the purchase marked failed (its asynchronous payment did not go through). */
  failPurchase(input: { event: { id: string; type: string }; sessionId: string }): Promise<'applied' | 'duplicate'>;
  /** Records an event that changes nothing, so that a redelivery is recognised. */
  recordEvent(event: { id: string; type: string }): Promise<'applied' | 'duplicate'>;
}

/** What a spend did; the account as it stands after it, whenever there is one (no re-read by the caller). */
export type SpendOutcome =
  | { status: 'spent' | 'replayed'; account: CreditAccount; entry: LedgerEntry }
  | { status: 'insufficient'; account: CreditAccount }
  | { status: 'no-account' | 'key-reused' };

export interface CreditRepository {
  getAccount(userId: string): Promise<CreditAccount | undefined>;
  lastTransaction(userId: string): Promise<LedgerEntry | undefined>;
  /** The ledger's newest `limit` lines, newest first (one Query). */
  recentTransactions(userId: string, limit: number): Promise<LedgerEntry[]>;
  /**
   * One transaction: balance - credits (only if the balance covers it), the idempotency guard (only once per key)
   * and the ledger row.
   */
  spend(input: { userId: string; entry: LedgerEntry; key: string; requestHash: string }): Promise<SpendOutcome>;
  /** Gives credits back (a failed generation): keyed, so a retried refund applies once. */
  credit(input: { userId: string; entry: LedgerEntry; key: string }): Promise<'credited' | 'replayed' | 'no-account'>;
  /** Accounts whose period ended at or before `now`, one page at a time. */
  listDueForReset(now: string, cursor?: string): Promise<{ accounts: CreditAccount[]; cursor?: string }>;
  /**
   * One transaction: the account moves from `seen` to `next` (only if it is still `seen`: a spend in between makes it
   * 'changed'), the period guard (once) and the ledger row.
   */
  reset(input: { seen: CreditAccount; next: CreditAccount; entry: LedgerEntry; key: string }): Promise<'reset' | 'already' | 'changed'>;
  /** Every ledger row of a user, oldest first (audits and tests). */
  ledger(userId: string): Promise<LedgerEntry[]>;
}

/* ---------- Public profiles (the storefront, issue 12) ---------- */

/** A creator's public profile as stored; `version` moves with each save (a save only lands on the version it read). */
export interface StoredPublicProfile {
  creatorId: string;
  displayName: string;
  bio: string;
  slug: string;
  /** The uploaded picture (object `avatars/<creatorId>/<id>`), or null. */
  avatar: { id: string; contentType: string } | null;
  version: number;
  updatedAt: string;
}

export interface PublicProfileRepository {
  get(creatorId: string): Promise<StoredPublicProfile | undefined>;
  /** The profiles of these creators that exist, in one batch read (at most 100 ids). */
  getMany(creatorIds: readonly string[]): Promise<StoredPublicProfile[]>;
  /** The profile at a public address (one read: the slug's reservation carries a copy of the profile). */
  getBySlug(slug: string): Promise<StoredPublicProfile | undefined>;
  /**
   * One transaction: the slug reserved for this creator (free or already theirs) with the profile's copy, the profile
   * written only while it is still at `previous` (undefined: none yet), and the previous slug freed when it moves.
   * 'slug-taken' when another creator holds the slug, 'changed' when the profile moved meanwhile.
   */
  save(input: { profile: StoredPublicProfile; previous: Pick<StoredPublicProfile, 'slug' | 'version'> | undefined }): Promise<'saved' | 'slug-taken' | 'changed'>;
}

/* ---------- Courses (CourseRepository: backend-courses) ---------- */

/** A course item as stored: the contract's course without its lessons (separate items), plus its owner. */
export type CourseRecord = Omit<Course, 'lessons'> & { creatorId: string };

/** A stored course: the contract's course (lessons in order) and its owner. */
export type StoredCourse = Course & { creatorId: string };

/** What PATCH /api/courses/{courseId} may change, with the time of the change. */
export type CourseChanges = Partial<Pick<CourseRecord, 'title' | 'description' | 'status' | 'priceAmount' | 'seatPriceAmount'>> & {
  updatedAt: string;
  /** Set with a new title: the version its 'course-changed' run copies it under (core/courses/changes.ts). */
  titleChangedAt?: string;
};

/**
 * The creator's dashboard counters (`CREATOR#<id> / STATS`): `courses`, `students` (active enrolments), `completions`
 * (active enrolments completed). Moved in the same transaction as the change they count.
 */
export type CreatorCounterDeltas = Partial<Record<'courses' | 'students' | 'completions' | 'certificates', number>>;

/** A lesson as the course's outline holds it: no body, video or quiz (those are read one lesson at a time). */
export interface OutlineLesson {
  id: string;
  title: string;
  kind: LessonRecord['kind'];
  /** 0..n-1, the lessons' order. */
  position: number;
  createdAt: string;
  /** Drip release (core/enrollments/drip.ts): when the lesson opens to each learner; absent: immediate. */
  release?: LessonRecord['release'];
}

/** A course's item and its outline (the learner's reads of a lesson: eventually consistent, no lesson bodies). */
export type CourseOutline = CourseRecord & { lessons: OutlineLesson[] };

/**
 * Courses and their lessons. Every write that names a `creatorId` happens only while the course is that creator's,
 * so a request about another creator's course changes nothing ('gone', the caller answers 404).
 */
export interface CourseRepository {
  /** One transaction: the new course and the creator's `courses` counter +1. */
  create(course: CourseRecord): Promise<void>;
  /** The course with its lessons in order (one Query on the course's partition), whoever owns it. */
  getCourse(courseId: string): Promise<StoredCourse | undefined>;
  /** The course item and its outline (one BatchGetItem, eventually consistent), whoever owns it. */
  getOutline(courseId: string): Promise<CourseOutline | undefined>;
  /**
   * The course's lessons in order (numbered 0..n-1) with their files, without the course item (one Query, eventually
   * consistent): what a learner's whole course adds to its outline.
   */
  getLessons(courseId: string): Promise<Lesson[]>;
  /** One lesson with its files (a GetItem and a Query, eventually consistent); `position` is its stored rank. */
  getLesson(courseId: string, lessonId: string): Promise<Lesson | undefined>;
  /** The creator's courses, newest first, at most `limit` (default: all). */
  listByCreator(creatorId: string, options?: { limit?: number }): Promise<CourseRecord[]>;
  /** One page of the creator's courses, newest first (gsi1); a cursor this listing did not hand out is a ValidationError. */
  pageByCreator(creatorId: string, page: PageRequest): Promise<Paged<CourseRecord>>;
  /** One page of every creator's courses, newest first (gsi2 `COURSES`); `cursor` as a previous page handed out. */
  listAll(cursor: string | undefined, limit: number): Promise<{ items: CourseRecord[]; nextCursor: string | null }>;
  /** The course item as saved, or undefined when it is not (any more) the creator's. */
  update(input: { courseId: string; creatorId: string; changes: CourseChanges }): Promise<CourseRecord | undefined>;
  /**
   * The course item, in one transaction with the creator's and the platform's course counters (courses -1, published
   * -1 if it was). The rest of its partition (enrolments with their counters, lessons) is the 'course-changed' job's
   * (core/courses/changes.ts). False when it is not the creator's.
   */
  delete(input: { courseId: string; creatorId: string }): Promise<boolean>;
  /** One transaction: the lesson and the course's `lessonCount` +1, only while the course is the creator's and has room. */
  createLesson(input: { creatorId: string; lesson: LessonRecord }): Promise<'created' | 'gone' | 'full'>;
  /** Replaces a lesson's fields (not its files) while it exists in a course that is still the creator's. */
  updateLesson(input: { creatorId: string; lesson: LessonRecord }): Promise<'updated' | 'gone'>;
  /** One transaction: the lesson out and the course's `lessonCount` -1. */
  deleteLesson(input: { creatorId: string; courseId: string; lessonId: string; updatedAt: string }): Promise<'deleted' | 'gone'>;
  /** Each lesson gets its new position (only lessons that still exist, in a course still the creator's). */
  reorderLessons(input: { creatorId: string; courseId: string; order: string[]; updatedAt: string }): Promise<'reordered' | 'gone'>;
}

/* ---------- Enrolments ---------- */

/** An enrolment as stored (denormalised for the CRM and the learner's list). */
export interface Enrollment {
  courseId: string;
  learnerId: string;
  creatorId: string;
  learnerEmail: string;
  /** The learner's account createdAt. */
  learnerJoinedAt: string;
  courseTitle: string;
  status: 'active' | 'removed';
  enrolledAt: string;
  completedLessonIds: string[];
  /** 0-100, computed when a lesson is completed. */
  progress: number;
  /** = enrolledAt until the first completion. */
  lastActivity: string;
  completedAt: string | null;
  /** The team licence whose seat gives this access (checked on each access); absent: the learner's own. */
  licenseId?: string | undefined;
  /**
   * What holds this enrolment (issue 34): OWN_SOURCE (bought alone, given by the creator, a seat) and the bundle orders
   * that gave or also cover it (bundleSource(orderId); core/access/access.ts). Absent: OWN_SOURCE alone (every enrolment before bundles). A
   * bundle's refund takes its source away, and the enrolment goes only with its last source.
   */
  sources?: string[] | undefined;
  /** The course's certificate, once issued (and not revoked). */
  certificateId?: string | undefined;
  /** The learner's first activity, as counted in the course's report (`started`: ReportMoves). */
  startedAt?: string | undefined;
  /** The lessons this learner reached (opened, attempted or completed), as counted in the report's `reached`. */
  reachedLessonIds?: string[] | undefined;
}

/**
 * What one progress write moves in its course's report (issue 29 point 3, docs/decisions/0045-course-reports.md),
 * decided by core from the enrolment as read (core/reports/course-report.ts reportMoves) and written in the same
 * transaction as the progress, conditioned as it is: a first activity (`startedAt`, set only while unset), a lesson
 * reached the first time (added to `reachedLessonIds` only while absent), a lesson's first completion, the course's
 * completion, a quiz attempt with each question's outcome (by `key`: a hash of its prompt).
 */
export interface ReportMoves {
  startedAt?: string;
  reachedLessonId?: string;
  completedLessonId?: string;
  courseCompleted?: boolean;
  quiz?: { lessonId: string; passed: boolean; questions: { key: string; correct: boolean }[] };
}

/** An enrolment's progress alone: what the team reports read of each member (a projection: lighter than the enrolment). */
export type EnrollmentProgress = Pick<Enrollment, 'learnerId' | 'enrolledAt' | 'progress' | 'lastActivity' | 'completedAt' | 'certificateId'>;

/**
 * What a new enrolment is made of (the rest starts empty); enrolling again sets (or clears) `licenseId`. `source`: the
 * bundle order that gives it (bundleSource); absent: the learner's own (OWN_SOURCE).
 */
export type NewEnrollment = Pick<Enrollment, 'courseId' | 'learnerId' | 'creatorId' | 'learnerEmail' | 'learnerJoinedAt' | 'courseTitle' | 'enrolledAt' | 'licenseId'> & { source?: string | undefined };

export interface EnrollmentRepository {
  /**
   * One transaction: the enrolment put and the creator's counters (students +1, completions +1 for a restored
   * completed one). A `removed` enrolment is reactivated keeping its progress ('restored'); an `active` one is
   * left alone ('already'), unless a bundle's `source` is given: then that source is added to it ('added'; already
   * there: 'already'). A new or restored enrolment holds `source` alone (none given: its own). The course's
   * `enrolledCount` moves too, only while the course exists ('gone' otherwise).
   */
  enroll(enrollment: NewEnrollment): Promise<{ status: 'enrolled' | 'restored'; enrollment: Enrollment } | { status: 'already' | 'added' | 'gone' }>;
  /**
   * One source taken from an active enrolment (a refunded or disputed order): the enrolment removed as `remove` does
   * when it was the last ('removed'), kept with the others otherwise ('kept'); 'missing' when no active enrolment holds
   * that source.
   */
  revokeSource(courseId: string, learnerId: string, source: string): Promise<'removed' | 'kept' | 'missing'>;
  /** One transaction: status removed, the index keys dropped (progress kept), the counters and `enrolledCount` moved. 'missing' when no active one. */
  remove(courseId: string, learnerId: string): Promise<'removed' | 'missing'>;
  get(courseId: string, learnerId: string): Promise<Enrollment | undefined>;
  /** These learners' progress in one course (those enrolled, now or before), in batches of 100, in no particular order. */
  getMany(courseId: string, learnerIds: readonly string[]): Promise<EnrollmentProgress[]>;
  /** A course's active and removed enrolments, one page (opaque cursor). */
  listByCourse(courseId: string, cursor?: string): Promise<{ items: Enrollment[]; cursor: string | null }>;
  /** A learner's active enrolments (every creator's). */
  listByLearner(learnerId: string): Promise<Enrollment[]>;
  /** One page of a learner's active enrolments, in course id order (those of a course that is gone left out: a page may hold fewer). */
  pageByLearner(learnerId: string, page: PageRequest): Promise<Paged<Enrollment>>;
  /**
   * One transaction: the lesson added to the completed ones with the new progress, lastActivity and completedAt
   * (only while the enrolment is active and its completed list is still `seenCount` long), the activity day, and
   * completions +1 when it becomes complete. 'changed' when the enrolment moved meanwhile (the caller reads again).
   */
  completeLesson(input: {
    courseId: string;
    learnerId: string;
    creatorId: string;
    lessonId: string;
    seenCount: number;
    progress: number;
    at: string;
    /** YYYY-MM-DD in the learner's time zone. */
    day: string;
    /** Set when this completion makes the course complete (once). */
    completedAt?: string;
    /** The course report's figures this completion moves (and the enrolment's marks), in the same transaction. */
    report?: ReportMoves;
  }): Promise<'completed' | 'changed'>;
  /**
   * A lesson opened (or a quiz attempted) for the first time: the enrolment's marks and the report's figures (`reached`,
   * `started`) in one transaction, only while the enrolment is active and not marked yet ('changed' otherwise).
   */
  reachLesson(input: { courseId: string; learnerId: string; report: ReportMoves }): Promise<'reached' | 'changed'>;
  /** The learner's activity days (YYYY-MM-DD) from `fromDay` on, oldest first. */
  activityDays(learnerId: string, fromDay: string): Promise<string[]>;
}

/** A file sent with an email: text content (a calendar's `.ics`), sent base64-encoded by the adapter. */
export interface MailAttachment {
  filename: string;
  /** The MIME type with its parameters (`text/calendar; method=REQUEST`). */
  contentType: string;
  content: string;
}

/** One email: to whom, its subject, its body as text and as HTML, and any files attached. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
  /** The sender's display name (a branded creator's school, issue 32); the platform's address is always the sender. */
  fromName?: string;
  /** Headers of its own: a sequence email's RFC 8058 List-Unsubscribe pair (issue 33). */
  headers?: { name: string; value: string }[];
}

/** A branded creator's school as their learners' emails show it (issue 32): the sender name, and its logo on top. */
export interface MailSchool {
  readonly name: string;
  /** An absolute, lasting URL of the logo (the public logo route), or null without one. */
  readonly logoUrl: string | null;
}

/** A creator's school for their learners' emails while branded (core/branding mailSchoolOf), else undefined. */
export type MailSchoolOf = (creatorId: string) => Promise<MailSchool | undefined>;

/** Email out (SES). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** An email in the mail queue: when it was queued, when it is due (later while a sender holds it), its sends so far. */
export interface QueuedMail extends MailMessage {
  id: string;
  queuedAt: string;
  dueAt: string;
  tries: number;
}

/**
 * Work the mail queue carries besides emails (issue 28): a paid order's new buyer, whose sign-in account is made and
 * invited (with a temporary password made then, never stored) by the sender job, not by the webhook that was paid
 * (core/sales/buyer-account.ts). Queued in the order's payment transaction, held and retried as an email is.
 */
export interface QueuedAccount {
  kind: 'buyer-account';
  id: string;
  /** The paid order: its buyer's email, course, seats (a team's leader) and amount are read from it. */
  orderId: string;
  email: string;
  queuedAt: string;
  dueAt: string;
  tries: number;
}

/** What the mail queue holds: an email, or work that ends in one (told apart by `kind`). */
export type QueuedItem = QueuedMail | QueuedAccount;

/**
 * Emails nobody waits for (a receipt, a certificate, an affiliate's link) until they are sent: each held by its
 * writer while it sends it, then due for the sender job if it is still there (core/mail/mail-queue.ts).
 */
export interface MailQueue {
  // (Emails are written into it by the transaction of what they announce: data/mail-queue.ts mailQueuePut.)
  /** Those due by `now`, the longest due first. */
  due(now: string, limit: number): Promise<QueuedItem[]>;
  /** Replaces `from` by `to` (another due time, another try): false when `from` is gone (another sender has it). */
  move<T extends QueuedItem>(from: T, to: T): Promise<boolean>;
  /** Sent or given up: gone. */
  remove(mail: QueuedItem): Promise<void>;
}

/**
 * A secret sealed by envelope encryption (AES-256-GCM under a one-off data key; the data key itself wrapped by KMS in
 * the cloud, by the local key file locally). Every part base64. Opening it needs the same context (the creator id).
 */
export interface SealedSecret {
  ciphertext: string;
  iv: string;
  tag: string;
  encryptedDataKey: string;
}

/** Seals and opens secrets bound to a context: a blob sealed for one creator does not open for another. */
export interface SecretCipher {
  encrypt(plaintext: string, context: string): Promise<SealedSecret>;
  /** Throws when the blob was altered or belongs to another context. */
  decrypt(sealed: SealedSecret, context: string): Promise<string>;
}

/* ---------- Email campaigns (issue 11) ---------- */

/** One destination of a bulk send: its address, its own headers (List-Unsubscribe) and template data. */
export interface BulkEntry {
  to: string;
  headers: { name: string; value: string }[];
  data: Record<string, string>;
}

/**
 * SES SendBulkEmail: one call for at most 50 destinations with the same content. Never retried after a timeout (a
 * retry could send the batch twice): a call SES answered with an error throws MailRefusedError (nothing went out);
 * any other failure (a timeout, a cut connection) leaves it unknown whether the batch went.
 */
export interface BulkMailer {
  /** One result per entry, in order: ok, or why SES refused that destination. */
  sendBulk(message: { subject: string; text: string; html: string; entries: BulkEntry[] }): Promise<{ to: string; ok: boolean; error?: string }[]>;
  /** SES's MaxSendRate (messages per second), to pace the batches under it. */
  maxSendRate(): Promise<number>;
  /**
   * The account's quota now (SES GetAccount's SendQuota, read afresh): its rate and how many messages it may still
   * send in the rolling 24 hours (Max24HourSend - SentLast24Hours). Absent: no daily quota to keep to.
   */
  quota?(): Promise<{ maxSendRate: number; left24Hours: number }>;
}

export type SuppressionReason = 'unsubscribed' | 'bounce' | 'complaint';

/** An automation's email waiting in the outbox: which automation, to whom, queued when. */
export interface OutboxEmail {
  automation: AutomationId;
  userId: string;
  email: string;
  at: string;
}

/** One page of a campaign's audience: who (with whether the account is disabled) and where the next page starts. */
export interface AudiencePage {
  people: { email: string; disabled: boolean }[];
  /** Opaque position of the next page in this segment; undefined at the segment's end. */
  next: string | undefined;
}

/** A campaign as stored, with where its sending stands. */
export interface StoredCampaign {
  id: string;
  subject: string;
  content: string;
  recipient: CampaignRecipient;
  template: CampaignTemplate;
  status: CampaignStatus;
  recipientCount: number;
  sent: number;
  failed: number;
  skipped: number;
  createdAt: string;
  completedAt: string | null;
  /** The batches recorded so far; a batch is recorded only on this number (so never twice). */
  batch: number;
  /** Which audience segment the next batch reads, and from where in it. */
  segment: number;
  position: string | null;
  /** The sender holding the campaign until `leaseUntil` (ISO): one sender at a time. */
  leaseUntil: string | null;
  /**
   * A batch handed to SES and not recorded yet (the sender stopped in between): it went, or may have, so it is recorded
   * as sent and never handed over again.
   */
  handedOff: HandedOff | null;
  /**
   * Recipients SES refused at its daily quota (`ACCOUNT_DAILY_QUOTA_EXCEEDED`: not sent; other mail spent the quota
   * mid-wave), in audience order: the campaign's next waves send them first once there is quota again. Absent: none.
   */
  owed?: string[];
}

/**
 * A wave handed to SES and not recorded yet: its number, its addresses, and (written by senders since issue 28) where
 * the wave ends in the audience and how many it skipped, so that the next run records it without reading it again.
 */
export interface HandedOff {
  batch: number;
  count: number;
  segment?: number;
  position?: string | null;
  skipped?: number;
  /** How many of the campaign's `owed` (from the front) the wave carries: the rest stay owed when it is recorded. */
  owedTaken?: number;
}

export interface CampaignRepository {
  /** The audience size from the platform counters (O(1)): users of a role, subscriptions on trial / paid up. */
  audienceSize(segments: readonly string[]): Promise<number>;
  /**
   * Creates a queued campaign with its activity line and counter, and `audit` (the admin's `campaign-sent` line), in
   * one transaction, once per `requestKey` (a retried POST finds it and writes none of them again).
   */
  create(campaign: StoredCampaign, requestKey: string | undefined, audit?: AuditLine): Promise<StoredCampaign>;
  get(id: string): Promise<StoredCampaign | undefined>;
  /** The newest campaigns (at most `limit`) and the platform's email totals. */
  list(limit: number): Promise<{ items: StoredCampaign[]; totals: CampaignList['totals'] }>;
  /** Campaigns still queued or sending, oldest first. */
  pending(): Promise<string[]>;
  /**
   * Takes the campaign for `until` unless another sender holds it; false when held. `owner` (the sender's run) is
   * noted with the lease: a later slice of the same run takes it again at once (its earlier slice was killed holding it).
   */
  lease(id: string, now: string, until: string, owner?: string): Promise<boolean>;
  /** One page (<= 50) of a segment from `position`. */
  audiencePage(segment: string, position: string | null, limit: number): Promise<AudiencePage>;
  /** The suppressed among these addresses (lower-case). */
  suppressed(emails: readonly string[]): Promise<Set<string>>;
  /** Notes that batch `batch` (of `count` addresses; `wave`: where it ends) is being handed to SES, while it is still the next one. */
  handOff(id: string, batch: number, count: number, wave?: { segment: number; position: string | null; skipped: number; owedTaken?: number }): Promise<boolean>;
  /** SES's daily quota is reached: the campaign (unless sent) shows `paused` and is free for the run that finds quota again. */
  pauseForQuota(id: string): Promise<void>;
  /** SES refused the batch outright (nothing went): it is no longer handed off, the next run sends it. */
  takeBack(id: string, batch: number): Promise<void>;
  /** A run that failed frees the campaign at once (while batch `batch` is still its next one), not when its lease ends. */
  release(id: string, batch: number): Promise<void>;
  /**
   * Records batch number `batch` (only if it is still the next one): counts added, the next position, the lease
   * renewed, the hand-off cleared, `owed` the recipients still owed after it (none when absent), and `done`
   * marks the campaign sent. False when that batch was already recorded.
   */
  recordBatch(
    id: string,
    batch: number,
    outcome: { sent: number; failed: number; skipped: number; segment: number; position: string | null; owed?: string[]; done: boolean; at: string; leaseUntil: string },
  ): Promise<boolean>;
  /** Adds the address to the suppression list once (a repeat changes nothing); true when it was new. */
  suppress(email: string, reason: SuppressionReason, at: string): Promise<boolean>;
  templateOverrides(): Promise<Map<string, { subject: string; content: string; updatedAt: string }>>;
  saveTemplate(id: string, template: { subject: string; content: string; updatedAt: string }): Promise<void>;
  automationSettings(): Promise<Map<string, { enabled: boolean; sent: number }>>;
  saveAutomation(id: string, enabled: boolean): Promise<void>;
  countAutomationSent(id: string, count: number): Promise<void>;
  /** The oldest automation emails waiting to be sent (queued in the transaction of what caused them). */
  /** The oldest waiting emails, at most `limit`; only those owed by `upTo` (their `at`) when it is given. */
  outbox(limit: number, upTo?: string): Promise<OutboxEmail[]>;
  /** Takes one waiting email off the outbox; false when another sender took it first. */
  claimOutbox(message: OutboxEmail): Promise<boolean>;
  /** Puts emails taken off the outbox back (SES refused them outright: nothing went), for the next run. */
  returnToOutbox(messages: readonly OutboxEmail[]): Promise<void>;
  /** The 32-byte HMAC key of unsubscribe tokens, sealed; created on first use (the first writer wins). */
  unsubscribeKey(create: () => Promise<SealedSecret>): Promise<SealedSecret>;
}

/* ---------- Course orders (sales on the creators' accounts) ---------- */

export type OrderStatus = 'pending' | 'paid' | 'expired' | 'refunded' | 'disputed';

/** One purchase of a course: made when the checkout starts, paid (or expired) by the Connect webhook. */
export interface Order {
  id: string;
  courseId: string;
  courseTitle: string;
  creatorId: string;
  /** The creator's connected account the checkout is on. */
  accountId: string;
  status: OrderStatus;
  /** The buyer's email: given at checkout, or the one Stripe collected (known once paid). */
  buyerEmail: string | null;
  /** Pence: the course's price when the checkout started, the discount, and what was paid. */
  price: number;
  discount: number;
  amount: number;
  currency: 'gbp';
  couponCode: string | null;
  affiliateId: string | null;
  seats: number | null;
  checkoutSessionId: string | null;
  checkoutUrl: string | null;
  paymentIntentId: string | null;
  learnerId: string | null;
  createdAt: string;
  paidAt: string | null;
  /** The Stripe event that paid it (its redelivery is a duplicate): absent on an order not paid by markPaid, or paid before it was kept. */
  paidEventId?: string | undefined;
  /**
   * A bundle's order (issue 34): the bundle, and its courses as bought (each enrolled once when paid, each enrolment
   * taken back with the order's refund unless held by other means). `courseId` is then the bundle's id and
   * `courseTitle` its title, as the Sales list, the receipt and the counters show it.
   */
  bundleId?: string | undefined;
  courseIds?: string[] | undefined;
  /** The titles of `courseIds` when bought, in the same order (each enrolment's copy of its course's title). */
  courseTitles?: string[] | undefined;
}

/** A creator's bundle of courses (issue 34), as stored: the courses by id, in the creator's order. */
export interface StoredBundle {
  id: string;
  creatorId: string;
  title: string;
  description: string;
  courseIds: string[];
  /** Pence. */
  priceAmount: number;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface BundleRepository {
  get(bundleId: string): Promise<StoredBundle | undefined>;
  /** The creator's bundles, newest first (at most BUNDLES_PER_CREATOR_MAX of them). */
  listByCreator(creatorId: string): Promise<StoredBundle[]>;
  /** False when that id exists already. */
  create(bundle: StoredBundle): Promise<boolean>;
  /** The changed fields, only while the bundle exists and is this creator's; the bundle as saved, or undefined. */
  update(creatorId: string, bundleId: string, changes: Partial<Pick<StoredBundle, 'title' | 'description' | 'courseIds' | 'priceAmount' | 'active' | 'updatedAt'>>): Promise<StoredBundle | undefined>;
  /** Only while it is this creator's; false otherwise. Its buyers keep their courses (their enrolments name the order). */
  delete(creatorId: string, bundleId: string): Promise<boolean>;
}

/** A creator's membership (issue 34 point 2): `courseIds` 'all' is every published course of theirs, now and later. */
export interface StoredMembership {
  id: string;
  creatorId: string;
  title: string;
  description: string;
  interval: 'month' | 'year';
  /** Pence a period. */
  priceAmount: number;
  courseIds: string[] | 'all';
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * One subscription to a membership, as its Connect events last said it (core/memberships/subscription-events.ts):
 * whoever of the checkout and the subscription's events comes first makes it; `learnerId` once the buyer's account is
 * known. `eventKey` orders the events applied (Stripe's `created`, then the status's rank within one second).
 */
export interface StoredMember {
  membershipId: string;
  creatorId: string;
  subscriptionId: string;
  accountId: string;
  customerId: string | null;
  email: string | null;
  learnerId: string | null;
  status: 'incomplete' | 'trialing' | 'active' | 'past_due' | 'unpaid' | 'canceled';
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  eventKey: number;
  createdAt: string;
}

/** What a subscription event says of the subscription. */
export type MemberState = Pick<StoredMember, 'status' | 'currentPeriodEnd' | 'cancelAtPeriodEnd' | 'customerId'>;

export interface MembershipRepository {
  get(membershipId: string): Promise<StoredMembership | undefined>;
  /** The creator's memberships, newest first (at most MEMBERSHIPS_PER_CREATOR_MAX). */
  listByCreator(creatorId: string): Promise<StoredMembership[]>;
  /** False when that id exists already. */
  create(membership: StoredMembership): Promise<boolean>;
  /** The changed fields, only while it exists and is this creator's; the membership as saved, or undefined. */
  update(creatorId: string, membershipId: string, changes: Partial<Pick<StoredMembership, 'title' | 'description' | 'courseIds' | 'active' | 'updatedAt'>>): Promise<StoredMembership | undefined>;
  /** Only while it is this creator's. Its members keep access until their subscriptions end. */
  delete(creatorId: string, membershipId: string): Promise<boolean>;
  /** One subscription's row. */
  member(membershipId: string, subscriptionId: string): Promise<StoredMember | undefined>;
  /** The membership's subscriptions, a page at a time (oldest first). */
  members(membershipId: string, page: PageRequest): Promise<Paged<StoredMember>>;
  /** The learner's subscriptions to this membership (a resubscription is a new one). */
  membersOfLearner(membershipId: string, learnerId: string): Promise<StoredMember[]>;
  /**
   * A subscription event applied once and in order: the row made if new (with `identity`), its state replaced only
   * when `eventKey` is not older than the one applied, and never once the subscription was deleted (`canceled`): false
   * when it was older or ended, so nothing changed.
   */
  applyState(input: { membershipId: string; subscriptionId: string; identity: Pick<StoredMember, 'creatorId' | 'accountId' | 'createdAt'>; state: MemberState; eventKey: number }): Promise<boolean>;
  /**
   * The membership's figures over all its subscriptions, kept by applyState in the same transaction as each row's
   * change: how many pay now, and how many ended on each day from `sinceDay` (YYYY-MM-DD) on, summed.
   */
  figures(membershipId: string, sinceDay: string): Promise<{ paying: number; ended: number }>;
  /** The buyer's email and account set on the row (made if new, its state left to the subscription's events). */
  bindLearner(input: { membershipId: string; subscriptionId: string; identity: Pick<StoredMember, 'creatorId' | 'accountId' | 'createdAt'>; email: string; learnerId: string }): Promise<StoredMember>;
}

/** Stripe Billing on a creator's connected account, for memberships (the adapter is the Connect one). */
export interface MembershipPayments {
  /**
   * A hosted Checkout Session in subscription mode on the creator's connected account (a membership, issue 34): one
   * recurring line of `amount` pence every `interval`, no application fee; `membershipId` in the session's and the
   * subscription's metadata. The same idempotency key answers the same session.
   */
  createMembershipCheckout(input: {
    accountId: string;
    membershipId: string;
    title: string;
    amount: number;
    interval: 'month' | 'year';
    email?: string;
    successUrl: string;
    cancelUrl: string;
    idempotencyKey: string;
  }): Promise<{ id: string; url: string }>;
  /** A billing portal session for a member's customer on the creator's account: its URL. */
  createPortalSession(input: { accountId: string; customerId: string; returnUrl: string }): Promise<{ url: string }>;
}

/** A creator's payment account as a membership's checkout needs it (the sales room's payouts mirror). */
export interface CreatorPaymentAccounts {
  get(userId: string): Promise<{ accountId: string; chargesEnabled: boolean } | undefined>;
}

/** A membership's Connect events in the product's words (`account`: the creator's connected account). */
export type MembershipEvent =
  /** A subscription-mode checkout completed (a membership bought): who bought it, and the subscription it made. */
  | { id: string; type: string; created: number; account: string; kind: 'membership-checkout'; membershipId: string; subscriptionId: string; customerId: string | null; email: string | null }
  /** `customer.subscription.created/updated/deleted` of a membership's subscription (`membershipId` from its metadata). */
  | {
      id: string;
      type: string;
      created: number;
      account: string;
      kind: 'subscription';
      membershipId: string;
      subscriptionId: string;
      state: { status: StoredMember['status']; currentPeriodEnd: string | null; cancelAtPeriodEnd: boolean; customerId: string | null };
    };

/** One day's sales counters of a creator: totals, and revenue and sales by course. */
/** A day of the sales series: revenue net of that day's refunds (pence) and sales. */
export interface SalesDay {
  date: string;
  revenue: number;
  sales: number;
}

/** A window of days from the sales counters: each day with sales or refunds, and the window's totals. */
export interface SalesWindow {
  days: SalesDay[];
  refunds: number;
  /** The funnel: public course page views and checkouts started in the window. */
  views: number;
  checkouts: number;
  byCourse: Record<string, { revenue: number; sales: number }>;
  /** Coupon use: each coupon's paid redemptions and the discount they gave (pence). */
  byCoupon: Record<string, { redemptions: number; discount: number }>;
}

export interface OrderRepository {
  get(orderId: string): Promise<Order | undefined>;
  /** Writes a new pending order; false when that id exists already (a retried request with the same key). */
  create(order: Order): Promise<boolean>;
  /** The Checkout Session the pending order is paid through. */
  setCheckout(orderId: string, session: { id: string; url: string }): Promise<void>;
  /**
   * One transaction: the order pending -> paid (amounts, buyer, learner, time, and the event's id as `paidEventId`: the
   * event is not recorded apart) and the creator's sales counters of that day moved. 'duplicate' for the event that
   * paid it, or an event already recorded; 'not-pending' when the order is paid, expired or refunded already (the
   * event recorded then).
   */
  markPaid(input: {
    event: { id: string; type: string };
    orderId: string;
    paid: { amount: number; discount: number; buyerEmail: string; learnerId: string | null; paymentIntentId: string | null; paidAt: string };
    /**
     * The affiliate the sale is credited to (null: nobody, and the order's `affiliateId` is cleared) and, when the
     * buyer paid anything, the commission it earns: created pending in the same transaction, with the affiliate's
     * and the platform's figures.
     */
    referral?: { affiliateId: string; commission: NewCommission | null } | null;
    /** The buyer's receipt, put in the mail queue in the same transaction (due at once: the sender job sends it). */
    receipt?: QueuedMail | undefined;
    /** A new buyer's account to make and invite, queued in the same transaction (core/sales/buyer-account.ts). */
    account?: QueuedAccount | undefined;
  }): Promise<'applied' | 'duplicate' | 'not-pending' | 'coupon-used'>;
  /** The learner a paid order enrolled (its buyer's account made after the payment): false when it is not paid any more. */
  setLearner(orderId: string, learnerId: string): Promise<boolean>;
  /**
   * (markPaid also counts the order's coupon, once: `redeemed` +1 and the buyer's use, a conditional write: when that
   * email's use of the coupon is another order's, nothing is written and the answer is 'coupon-used'.)
   */
  /**
   * A paid order the platform cannot fulfil, after its refund at Stripe: one transaction with the event recorded, the
   * order pending -> refunded (paid and refunded at `at`, in the Sales list as refunded, with its `unfulfilled` reason),
   * its PaymentIntent, `refunds` +1 on the day's counters, and the buyer's notice in the mail queue.
   */
  markUnfulfilled(input: {
    event: { id: string; type: string };
    orderId: string;
    refunded: { amount: number; discount: number; buyerEmail: string | null; paymentIntentId: string | null; at: string };
    reason: string;
    notice?: QueuedMail | undefined;
  }): Promise<'applied' | 'duplicate' | 'not-pending'>;
  /**
   * A refund or dispute whose payment is not known yet, kept for it: the event recorded and the reversal parked under
   * its PaymentIntent, on the condition that the PaymentIntent is still unknown ('known': the payment arrived meanwhile);
   * or, given `pendingOrderId` (the PaymentIntent is known, written just before its order's move: decision 0054), that
   * this order is still pending ('known': it moved meanwhile).
   */
  parkReversal(input: {
    event: { id: string; type: string };
    paymentIntentId: string;
    accountId: string;
    to: 'refunded' | 'disputed';
    pendingOrderId?: string;
  }): Promise<'parked' | 'known' | 'duplicate'>;
  /** The reversals parked for a PaymentIntent, oldest first. */
  parkedReversals(paymentIntentId: string): Promise<{ eventId: string; accountId: string; to: 'refunded' | 'disputed' }[]>;
  /** The order paid through this PaymentIntent (a charge's refund or dispute names the intent, not the order). */
  getByPaymentIntent(paymentIntentId: string): Promise<Order | undefined>;
  /** The creator's sales (paid, refunded or disputed orders), newest first, one page. */
  listSales(creatorId: string, cursor: string | undefined, limit: number): Promise<{ items: Order[]; nextCursor: string | null }>;
  /**
   * One transaction: the event (when there is one) recorded, a paid order -> refunded or disputed, and its amount taken
   * back out of the sales counters of the day it happened (`refunds` +1 there), and its affiliate commission, if any,
   * voided while unpaid or recorded as a clawback once paid. 'not-paid' when it is not paid (any more): a refund
   * happens once.
   */
  markReversed(input: { event?: { id: string; type: string }; orderId: string; to: 'refunded' | 'disputed'; at: string }): Promise<'applied' | 'duplicate' | 'not-paid'>;
  /** The creator's sales counters from `from` to `to` (YYYY-MM-DD, both included): each day with any, and per course and coupon. */
  salesWindow(creatorId: string, from: string, to: string): Promise<SalesWindow>;
  /** One step of the sales funnel on the creator's day counter: a public course page view, or a checkout started. */
  countFunnel(creatorId: string, at: string, step: 'views' | 'checkouts'): Promise<void>;
  /** The creator's revenue (pence, net of refunds) in a month (YYYY-MM). */
  monthRevenue(creatorId: string, month: string): Promise<number>;
  /** The event recorded and a pending order -> expired, in one transaction. */
  markExpired(input: { event: { id: string; type: string }; orderId: string }): Promise<'applied' | 'duplicate' | 'not-pending'>;
  /** An event with nothing else to write, recorded so that a redelivery is a plain duplicate. */
  recordEvent(event: { id: string; type: string }): Promise<'applied' | 'duplicate'>;
}

/* ---------- Affiliates (a creator's referrers and their commissions) ---------- */

export interface StoredAffiliate {
  id: string;
  creatorId: string;
  code: string;
  name: string;
  email: string;
  commissionPercent: number;
  cookieDays: number;
  holdDays: number;
  /** Figures moved in the transactions that move them (pence for the amounts). */
  clicks: number;
  sales: number;
  pending: number;
  approved: number;
  paid: number;
  clawedBack: number;
  createdAt: string;
}

/** What the redirect and the checkout need of a code: whose it is and how long its cookie lasts. */
export interface AffiliateCode {
  code: string;
  affiliateId: string;
  creatorId: string;
  cookieDays: number;
}

/** One followed link, kept for its cookie window: the checkout checks the window on our side, not only the browser. */
export interface AffiliateClick {
  clickId: string;
  code: string;
  affiliateId: string;
  creatorId: string;
  at: string;
  expiresAt: string;
}

export interface NewCommission {
  affiliateId: string;
  amount: number;
  approveAt: string;
}

export interface StoredCommission {
  affiliateId: string;
  creatorId: string;
  orderId: string;
  courseTitle: string;
  orderAmount: number;
  amount: number;
  status: 'pending' | 'approved' | 'void' | 'paid';
  approveAt: string;
  createdAt: string;
  paidAt: string | null;
  clawback: boolean;
}

/** A payout as recorded: what it paid, once per Idempotency-Key. */
/** A payout's record; its lines (one per commission paid, by order id) are items of their own, read a page at a time. */
export interface StoredPayout {
  payoutId: string;
  affiliateId: string;
  amount: number;
  /** How many lines (commissions) it holds. */
  lines: number;
  createdAt: string;
  complete: boolean;
}

/** One line of a payout: the commission of one order it paid (pence). */
export interface PayoutLine {
  orderId: string;
  amount: number;
  paidAt: string;
}

export interface AffiliateRepository {
  /**
   * The affiliate, its code, its email's claim and the email with their link (into the mail queue) in one
   * transaction: 'code-taken' (try another code) or 'email-taken', and nothing written.
   */
  create(affiliate: StoredAffiliate, email: QueuedMail): Promise<'created' | 'code-taken' | 'email-taken'>;
  list(creatorId: string): Promise<StoredAffiliate[]>;
  /** One page of the creator's affiliates, newest first, with their figures. */
  page(creatorId: string, page: PageRequest): Promise<Paged<StoredAffiliate>>;
  get(creatorId: string, affiliateId: string): Promise<StoredAffiliate | undefined>;
  code(code: string): Promise<AffiliateCode | undefined>;
  /** The click kept and, unless `counted` is false (a visitor's repeat), counted (affiliate and platform) in one transaction. */
  recordClick(click: AffiliateClick, options?: { counted: boolean }): Promise<void>;
  click(clickId: string): Promise<AffiliateClick | undefined>;
  commission(affiliateId: string, orderId: string): Promise<StoredCommission | undefined>;
  /** One page of the affiliate's commissions, newest first. */
  commissions(affiliateId: string, page: PageRequest): Promise<Paged<StoredCommission>>;
  /**
   * A page of the pending commissions whose hold is over at `now`, oldest first, at most `limit`, from where the page
   * before it ended (`after`, its `nextCursor`; none: the first); `nextCursor` null on the last page.
   */
  dueForApproval(now: string, limit: number, after?: string): Promise<{ items: StoredCommission[]; nextCursor: string | null }>;
  /** pending -> approved, once (false: it was approved, voided or is not due). */
  approve(commission: StoredCommission, now: string): Promise<boolean>;
  /** The approved commissions of the affiliate (what a payout takes). */
  approved(affiliateId: string): Promise<StoredCommission[]>;
  payout(affiliateId: string, payoutId: string): Promise<StoredPayout | undefined>;
  /** One page of the payout's lines: the commissions it paid (order id, amount, when), in order id order. */
  payoutLines(payoutId: string, page: PageRequest): Promise<Paged<PayoutLine>>;
  /**
   * approved -> paid for these commissions, in one transaction with the payout's record, a line per commission and the
   * figures (at most PAYOUT_BATCH commissions: the transaction stays within DynamoDB's 100 items); the ones that
   * were no longer approved are answered back (nothing written: the caller tries again without them).
   */
  pay(input: { affiliateId: string; creatorId: string; payoutId: string; commissions: StoredCommission[]; at: string }): Promise<{ paid: boolean; stale: string[] }>;
  /** The payout's record closed (a retry with its key answers it as it is). */
  completePayout(affiliateId: string, payoutId: string): Promise<void>;
}

/* ---------- Team licences (seats on a course, run by a group leader) ---------- */

export interface StoredLicense {
  id: string;
  courseId: string;
  courseTitle: string;
  creatorId: string;
  leaderId: string;
  leaderEmail: string;
  seatsTotal: number;
  seatsUsed: number;
  expiresAt: string | null;
  status: 'active' | 'ended';
  source: 'granted' | 'purchased';
  /** The order that bought it (a purchased licence). */
  orderId: string | null;
  createdAt: string;
}

export interface StoredSeat {
  licenseId: string;
  email: string;
  learnerId: string;
  status: 'active' | 'revoked';
  assignedAt: string;
}

/** A place in the index of licences ending: a licence's end date and id. */
export interface EndingPlace {
  expiresAt: string;
  id: string;
}

/**
 * A file built a page at a time and handed out as a link (issue 28: exports stream to S3): `write` takes the next
 * chunk (what one page of rows became), `finish` closes it and answers its download link; nothing holds the whole file.
 */
export interface ExportUpload {
  write(chunk: string): Promise<void>;
  finish(): Promise<{ url: string; expiresAt: string }>;
  /** Gives the file up (a failure halfway): nothing is left to download. */
  abort(): Promise<void>;
}
export interface ExportFiles {
  /** A new export at `key` (under the store's exports prefix), downloaded as `fileName`. */
  start(key: string, input: { contentType: string; fileName: string }): Promise<ExportUpload>;
}

/** A new download link of an export already written (under the exports prefix), valid `linkSeconds`. */
export type ExportLink = (key: string, input: { fileName: string; linkSeconds: number }) => Promise<string>;

export interface LicenseRepository {
  /** A new licence; false when that id exists (a retried purchase). */
  create(license: StoredLicense): Promise<boolean>;
  get(licenseId: string): Promise<StoredLicense | undefined>;
  listByCourse(courseId: string): Promise<StoredLicense[]>;
  listByLeader(leaderId: string): Promise<StoredLicense[]>;
  /** One page of the course's licences, newest first. */
  pageByCourse(courseId: string, page: PageRequest): Promise<Paged<StoredLicense>>;
  /** One page of the leader's licences, newest first. */
  pageByLeader(leaderId: string, page: PageRequest): Promise<Paged<StoredLicense>>;
  seats(licenseId: string): Promise<StoredSeat[]>;
  /**
   * Up to `limit` seats in email order after `after` (an email; none: from the first), optionally only those of one
   * status and whose email contains `q` (filtered by DynamoDB after the read: fewer may come back), and whether the
   * licence has seats beyond those read.
   */
  seatsAfter(
    licenseId: string,
    options: { after?: string | undefined; limit: number; status?: StoredSeat['status'] | undefined; q?: string | undefined },
  ): Promise<{ seats: StoredSeat[]; more: boolean; last: string | undefined }>;
  seat(licenseId: string, email: string): Promise<StoredSeat | undefined>;
  /**
   * One transaction: the seat taken (new, or a revoked one again) while `seatsUsed < seatsTotal` and the licence is
   * active. 'assigned', 'already' (the seat is active: nothing moved), 'full' or 'ended'.
   */
  assign(seat: StoredSeat): Promise<'assigned' | 'already' | 'full' | 'ended'>;
  /**
   * An active licence's seats or end date changed, only while its seats in use fit (`seatsUsed <= seatsTotal`):
   * the licence as saved, 'too-few' (more seats are in use), or undefined when it is not active.
   */
  update(licenseId: string, changes: { seatsTotal?: number; expiresAt?: string | null }): Promise<StoredLicense | 'too-few' | undefined>;
  /**
   * Active licences whose end date is at or before `now`, soonest first, from the one after `after` (a licence's end
   * date and id; none: the first), at most `limit` read; `next` (the last read) when the index has more.
   */
  endingBy(now: string, limit: number, after?: EndingPlace): Promise<{ items: StoredLicense[]; next?: EndingPlace | undefined }>;
  /** The licence ended (a refunded team order): its seats give no more access; false when it had ended already. */
  end(licenseId: string, at: string): Promise<boolean>;
  /** One transaction: an active seat revoked and the licence's `seatsUsed` - 1; false when it was not active. */
  revoke(licenseId: string, email: string, at: string): Promise<boolean>;
}

/** A group leader's profile and notification choice (issue 14's settings), as stored; absent until first saved. */
export interface StoredLeaderSettings {
  leaderId: string;
  name: string;
  organization: string;
  /** The weekly team email; on unless turned off (settings or its unsubscribe link). */
  weeklyReport: boolean;
  updatedAt: string;
  /** The week (its Monday, YYYY-MM-DD) whose weekly email was last sent to this leader (or claimed, before issue 28). */
  lastWeeklyReport?: string | undefined;
}

export interface LeaderSettingsRepository {
  get(leaderId: string): Promise<StoredLeaderSettings | undefined>;
  /** The profile and the choice saved; the weekly email's claim kept. Answers what is stored. */
  save(settings: Omit<StoredLeaderSettings, 'lastWeeklyReport'>): Promise<StoredLeaderSettings>;
  /** The weekly email off (the unsubscribe link); the rest kept, or defaults when nothing was saved yet. */
  stopWeeklyReport(leaderId: string, at: string): Promise<void>;
  /**
   * Holds the week's email for the leader for a run until `until` (ISO): true unless it was sent this week, another
   * run holds it (and its hold has not ended) or the leader turned it off. The run that holds it may take it again
   * (its slice retried after a kill between the hold and the send), so a kill loses no email.
   */
  claimWeeklyReport(leaderId: string, week: string, hold: { run: string; now: string; until: string }): Promise<boolean>;
  /** The week's email sent: `lastWeeklyReport` is the week, the hold gone (no run sends it again this week). */
  completeWeeklyReport(leaderId: string, week: string): Promise<void>;
  /** Gives the week back after a send that failed, so the next pass or run sends it. */
  releaseWeeklyReport(leaderId: string, week: string): Promise<void>;
}

/** A learner's attempts at one quiz lesson (issue 15), as stored. */
export interface StoredQuizAttempts {
  courseId: string;
  learnerId: string;
  lessonId: string;
  /** The lesson's title at the last attempt (the CRM lists scores without reading the course). */
  title: string;
  attempts: number;
  bestScore: number;
  passed: boolean;
  /** Per question in the order this learner sees it: whether the last attempt had it right (for the review). */
  lastCorrect: boolean[];
  updatedAt: string;
}

export interface QuizAttemptRepository {
  get(courseId: string, learnerId: string, lessonId: string): Promise<StoredQuizAttempts | undefined>;
  /** The learner's attempts at every quiz of the course (one Query). */
  listByLearner(courseId: string, learnerId: string): Promise<StoredQuizAttempts[]>;
  /**
   * The attempt recorded, only if no other was recorded since the caller read `seenAttempts` (0: none yet), so
   * concurrent submissions are counted one by one and never past the limit: 'recorded', or 'changed' (read again).
   * `report`: the course report's figures the attempt moves (and the enrolment's marks), in the same transaction; a
   * mark already set meanwhile is 'changed' too.
   */
  record(state: StoredQuizAttempts, seenAttempts: number, report?: ReportMoves): Promise<'recorded' | 'changed'>;
}

/* ---------- Certificates (issue 15) ---------- */

export interface StoredCertificate {
  id: string;
  courseId: string;
  learnerId: string;
  creatorId: string;
  learnerEmail: string;
  /** The learner's "Name on certificates" it carries; null when they had given none (older ones too). */
  learnerName: string | null;
  courseTitle: string;
  creatorName: string;
  issuedAt: string;
  /** Its revocation status list (paged: decision 0030), and its index there. */
  statusList: number;
  statusIndex: number;
  /** The credential as issued (VC-JWT). */
  jwt: string;
  status: 'valid' | 'revoked';
  revokedAt: string | null;
  revocationReason: string | null;
}

/** A revocation status list as stored: the revoked indexes, and a version that moves with every change. */
export interface StatusListRevocations {
  indexes: number[];
  version: number;
}

/** A status list as signed and published: the VC-JWT, and the revocations' version it was signed at. */
export interface PublishedStatusList {
  jwt: string;
  version: number;
}

export interface CertificateRepository {
  /** The published public keys (JWKs with their `kid`): the first key the platform made, and each KMS key since. */
  publicKeys(): Promise<Record<string, unknown>[]>;
  /** A signing key's public JWK published under its `kid` (once: a repeat changes nothing). */
  publishKey(key: { kid: string; publicJwk: Record<string, unknown> }): Promise<void>;
  /** Completed enrolments still waiting for their certificate, oldest first. */
  due(limit: number): Promise<{ courseId: string; learnerId: string }[]>;
  /** An enrolment no longer waits (its certificate exists, or it cannot have one). */
  clearDue(courseId: string, learnerId: string): Promise<void>;
  /** The next free place in the revocation status lists, counted over all lists (the core pages it). */
  nextStatusIndex(): Promise<number>;
  /** How many places were handed out so far (the lists in use follow from it). */
  statusIndexesAllocated(): Promise<number>;
  /**
   * One transaction: the certificate, the one-per-(course, learner) guard, the enrolment no longer due, and the
   * platform's `certificates_issued` counter, and its email in the mail queue. 'exists' when that learner has this
   * course's certificate already (and nothing is written).
   */
  issue(certificate: StoredCertificate, email: QueuedMail): Promise<'issued' | 'exists'>;
  get(id: string): Promise<StoredCertificate | undefined>;
  /** The certificate the learner holds for the course (the current one: valid, or revoked), if any. */
  heldFor(courseId: string, learnerId: string): Promise<StoredCertificate | undefined>;
  listByLearner(learnerId: string): Promise<StoredCertificate[]>;
  /** One page of the learner's certificates, newest first. */
  pageByLearner(learnerId: string, page: PageRequest): Promise<Paged<StoredCertificate>>;
  /** One page of the course's certificates, newest first. */
  listByCourse(courseId: string, page: PageRequest): Promise<Paged<StoredCertificate>>;
  /**
   * Revoked with its reason and its index set in the status list, in one transaction, then no longer on its enrolment;
   * false when it was revoked already (the enrolment is cleared again all the same).
   */
  revoke(id: string, at: string, reason: string): Promise<boolean>;
  /** A status list's revoked indexes and their version (list 0 unless told). */
  revocations(list?: number): Promise<StatusListRevocations>;
  /** A status list as last signed and published, if it was. */
  publishedStatusList(list: number): Promise<PublishedStatusList | undefined>;
  /** A status list signed at a version of its revocations, kept unless a newer version was kept meanwhile. */
  publishStatusList(list: number, published: PublishedStatusList): Promise<void>;
  /**
   * One transaction: `next` (a new id and status index) stored in place of `previous`, which is revoked with `reason`
   * (its index set in the status list) and leaves the learner's and the course's lists; the once-per-course guard and
   * the enrolment point to `next`. 'gone' when `previous` is no longer valid (revoked or re-issued meanwhile: nothing
   * is written).
   */
  reissue(previous: StoredCertificate, next: StoredCertificate, reason: string, at: string): Promise<'reissued' | 'gone'>;
}

/**
 * Marks that a visitor has already been counted (decision 0028): a view or a click counts once per visitor a day.
 * Each mark is a hash (core/visits/visitor-key.ts), never an address, and disappears by itself after `expiresAt`.
 */
export interface VisitMarks {
  /** Writes the mark unless it exists: true for the one write that made it (count then), false for every repeat. */
  markFirst(mark: string, expiresAt: Date): Promise<boolean>;
}

/** Branding (issue 32; core/branding): read by the storefront, the player and the mail to a creator's learners too. */
/** A creator's branding as stored: the logo, when there is one, is `avatars/<creatorId>/logos/<id>` in the files bucket. */
export interface StoredBranding {
  readonly creatorId: string;
  readonly schoolName: string;
  readonly primaryColor: string;
  readonly logo: { readonly id: string; readonly contentType: string } | null;
  readonly updatedAt: string;
}

export interface BrandingRepository {
  /** The creator's branding, or undefined before the first save (one read). */
  get(creatorId: string): Promise<StoredBranding | undefined>;
  /** Writes the whole branding. */
  save(branding: StoredBranding): Promise<void>;
}

/**
 * Pictures in the private files bucket (the creators' avatars and their schools' logos): uploaded by the browser with a presigned PUT whose
 * signature fixes the type and exact size, checked again on use (HeadObject), shown through presigned GETs.
 */
export interface ImageStore {
  uploadUrl(key: string, input: { contentType: string; contentLength: number; ttlSeconds: number }): Promise<string>;
  head(key: string): Promise<{ size: number; contentType: string | undefined } | undefined>;
  /** A presigned GET signed as at `signedAt` (so the same window gives the same URL, which the browser can cache). */
  viewUrl(key: string, input: { ttlSeconds: number; signedAt: Date }): Promise<string>;
  /** Deletes the object (a missing one is fine). */
  delete(key: string): Promise<void>;
}

/* ---------- AI tools: the one charge path (core/ai/charged-call.ts, issue 36) ---------- */

/**
 * What a charged call with an Idempotency-Key ended with, kept 24 hours so a retry of the same request is answered the
 * same, without a second charge or model call. `requestHash` tells a retry from another request under the same key.
 */
export type ChargedReplay<T> =
  | { outcome: 'generated'; requestHash: string; result: T; creditsRemaining: number; expiresAt: number }
  | { outcome: 'failed'; requestHash: string; expiresAt: number };

/** Where a tool keeps its replays (the landing page its own items, the drafting tools theirs: data/ai-drafts.ts). */
export interface ReplayStore<T> {
  get(userId: string, key: string): Promise<ChargedReplay<T> | undefined>;
  put(userId: string, key: string, replay: ChargedReplay<T>): Promise<void>;
}

/** A creator's one running call of a tool (the landing page has one: its generation is long and large). */
export interface GenerationSlot {
  /** Takes the slot until `expiresAt` (epoch s) when it is free or its holder's time ran out; false when held. */
  acquire(input: { userId: string; holder: string; now: number; expiresAt: number }): Promise<boolean>;
  /** Frees the slot if `holder` still holds it. */
  release(input: { userId: string; holder: string }): Promise<void>;
}
