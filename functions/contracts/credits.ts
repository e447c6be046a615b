import * as z from 'zod';
import { planTypes, type PlanType } from './plans.ts';

/**
 * What each AI tool costs, in credits: THE price table (issue 36). The routes charge from it, GET /api/ai/prices answers
 * it and the web app shows each cost from it before a tool runs. SPEC.md section 9 set the landing page's 15.
 */
export const aiTools = ['landingPage', 'courseOutline', 'lessonDraft', 'quizFromLesson'] as const;
export type AiTool = (typeof aiTools)[number];
export const aiPrices: Readonly<Record<AiTool, number>> = { landingPage: 15, courseOutline: 5, lessonDraft: 5, quizFromLesson: 3 };

/**
 * The ledger lines of each tool: its charge and its refund, so the credits history names the tool. The landing page's
 * names predate the table and stay (ledgers written before keep reading right).
 */
export const aiLedgerActions: Readonly<Record<AiTool, { charge: string; refund: string }>> = {
  landingPage: { charge: 'landing_page_generation', refund: 'landing_page_refund' },
  courseOutline: { charge: 'course_outline_generation', refund: 'course_outline_refund' },
  lessonDraft: { charge: 'lesson_draft_generation', refund: 'lesson_draft_refund' },
  quizFromLesson: { charge: 'quiz_from_lesson_generation', refund: 'quiz_from_lesson_refund' },
};

/** How the web app names each tool (the credits history, the buttons' costs). */
export const aiToolLabels: Readonly<Record<AiTool, string>> = {
  landingPage: 'Landing page',
  courseOutline: 'Course outline',
  lessonDraft: 'Lesson draft',
  quizFromLesson: 'Quiz from a lesson',
};

/** The tool a ledger line is a charge or refund of, if any. */
export const aiToolOfAction = (actionType: string): { tool: AiTool; refund: boolean } | undefined => {
  for (const tool of aiTools) {
    if (aiLedgerActions[tool].charge === actionType) return { tool, refund: false };
    if (aiLedgerActions[tool].refund === actionType) return { tool, refund: true };
  }
  return undefined;
};

/** GET /api/ai/prices */
export const aiPricesResponse = z.strictObject({
  landingPage: z.number().int().min(0),
  courseOutline: z.number().int().min(0),
  lessonDraft: z.number().int().min(0),
  quizFromLesson: z.number().int().min(0),
});
export type AiPricesResponse = z.infer<typeof aiPricesResponse>;

/** SPEC.md section 9 and the billing issue's choices (docs/decisions/0007-billing-and-credits.md). */
export const LANDING_PAGE_COST = aiPrices.landingPage;
export const CREDIT_TOP_UP = 100;
/** Price of one top-up of 100 credits, in pence. */
export const CREDIT_TOP_UP_PRICE_PENCE = 500;
export const monthlyAllocation: Readonly<Record<PlanType, number>> = { starter: 50, pro: 200 };

/** Low credits: at or below the larger of 10 and 10% of the monthly allocation. */
export const isLow = (creditsRemaining: number, allocation: number): boolean =>
  creditsRemaining <= Math.max(10, allocation * 0.1);

export const creditTransaction = z.object({
  actionType: z.string(),
  /** Signed: negative for a spend, positive for an allocation, a reset or a top-up. */
  credits: z.number().int(),
  createdAt: z.string(),
});
export type CreditTransaction = z.infer<typeof creditTransaction>;

/** A credit account as the API shows it: the answer of POST /api/credits/use, and of GET /api/me/credits when there is one. */
export const credits = z.object({
  creditsRemaining: z.number().int().min(0),
  creditsUsed: z.number().int().min(0),
  monthlyAllocation: z.number().int().min(0),
  planType: z.enum(planTypes),
  billingPeriodEnd: z.string(),
  low: z.boolean(),
  lastTransaction: creditTransaction.nullable(),
});
export type Credits = z.infer<typeof credits>;

/** How many ledger lines GET /api/me/credits answers in `history`: the credits card's recent charges and refunds. */
export const CREDITS_HISTORY_MAX = 10;

/**
 * GET /api/me/credits: null when the user has no credit account. `history` is the ledger's newest lines, newest first
 * (issue 36: the card names each AI tool's charge and refund through `aiToolOfAction`); optional, as POST
 * /api/credits/use answers the account without it.
 */
export const creditsResponse = credits.extend({ history: z.array(creditTransaction).max(CREDITS_HISTORY_MAX).optional() }).nullable();
export type CreditsResponse = z.infer<typeof creditsResponse>;

export const actionType = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/, 'Use lower-case words separated by underscores, e.g. landing_page_generation.');

/** POST /api/credits/use */
export const useCreditsBody = z.strictObject({
  creditsToUse: z.number().int().min(1).max(1000),
  actionType,
  description: z.string().max(500).optional(),
});
export type UseCreditsBody = z.infer<typeof useCreditsBody>;

/** POST /api/credits/purchase: one top-up of 100 credits. */
export const purchaseCreditsBody = z.strictObject({
  creditAmount: z.literal(CREDIT_TOP_UP),
  successUrl: z.url({ protocol: /^https?$/ }).max(2000),
  cancelUrl: z.url({ protocol: /^https?$/ }).max(2000),
});
export type PurchaseCreditsBody = z.infer<typeof purchaseCreditsBody>;
