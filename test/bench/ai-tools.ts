import { pathToFileURL } from 'node:url';
import { createAccount } from '#core/accounts/create-account.ts';
import { accountPut, ledgerPuts } from '#data/credits.ts';
import { transact } from '#data/table.ts';
import { getDeps } from '#functions/composition/deps.ts';
import type { LocalCloud } from '#lib/local/cloud.ts';
import { applyFunctionEnv } from '#lib/local/function-env.ts';
import { signIn } from './api-latency.ts';
import { count } from './cloud-part.ts';
import { givePro } from './public-api.ts';
import { ms, percentile } from './stats.ts';
import { errorRow, row, type Row } from './table.ts';

/**
 * AI drafting's price on top of the model (issue 36: "each tool's p50 overhead on top of the model call within 1.5x
 * of the landing generator's"). One creator of the bench's own (Pro, a credit balance written as the ledger's
 * grant), one course with a lesson to draft a quiz from. Each round calls the four paid tools once, one in flight, in
 * a rotating order so a shared machine's noise falls on all alike; each call's overhead is its time at the client
 * less the model's own time (the `latencyMs` the Bedrock stand-in answers with, as Bedrock's Converse does): the
 * gateway, the plan and credits checks, the charge and its ledger line in one transaction, the prompt, the SDK, the
 * output's schema check and sanitizing. bench.ts adds `benchAiTools`'s rows; run alone:
 * `node --import tsx test/bench/ai-tools.ts`.
 */

const WARM_UP_ROUNDS = 3;
const ROUNDS = 40;
const RATIO_BUDGET = 1.5;
const PASSWORD = 'BenchCreator123';

interface Tool {
  label: string;
  path: string;
  /** The stand-in's name for the tool the call forces (none for the landing page). */
  standIn?: string;
  body: () => unknown;
  overheads: number[];
  models: number[];
  failures: string[];
}

const LESSON_BODY = [
  '## Why a starter ferments',
  'A sourdough starter is flour and water in which wild yeast and lactic acid bacteria live.',
  'Feed it every day with equal weights of flour and water and keep it at about 24 degrees.',
  'It is ready when it doubles within six hours of a feed and smells pleasantly sour.',
].join('\n\n');

export const aiToolsSection = `AI drafting, each tool's overhead on top of the model call (client time less the model's latencyMs; ${ROUNDS} rounds of the four tools after ${WARM_UP_ROUNDS} warm-up, 1 in flight)`;

/** The rows of this part, on a running local cloud and a gateway with the route throttles lifted. */
export const benchAiTools = async (cloud: LocalCloud, gatewayUrl: string, log: (line: string) => void): Promise<Row[]> => {
  const call = async (token: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, text: await res.text() };
  };
  let token: string;
  let tools: Tool[];
  try {
    applyFunctionEnv(cloud.env);
    log('creating a Pro bench creator with credits, a course and a lesson to draft from');
    const email = `bench-ai-${Date.now()}@example.com`;
    const creator = await createAccount(getDeps(), { email, role: 'creator', password: PASSWORD });
    await givePro(creator.id);
    const credits = 100_000;
    const billingPeriodEnd = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const account = { userId: creator.id, creditsRemaining: credits, creditsUsed: 0, monthlyAllocation: 200, planType: 'pro' as const, billingPeriodEnd };
    const failed = await transact([accountPut(account), ...ledgerPuts(creator.id, { actionType: 'test_grant', credits, createdAt: new Date().toISOString() }, `bench:${creator.id}`)]);
    if (failed) throw new Error(`the bench creator's credits were not written (${JSON.stringify(failed)})`);
    ({ token } = await signIn(cloud, email, PASSWORD));
    const course = await call(token, 'POST', '/api/courses', { title: 'Sourdough at home' });
    if (course.status !== 201) throw new Error(`POST /api/courses answered ${course.status}: ${course.text}`);
    const courseId = (JSON.parse(course.text) as { id: string }).id;
    const lesson = await call(token, 'POST', `/api/courses/${courseId}/lessons`, { title: 'Your first starter', kind: 'text', body: LESSON_BODY });
    if (lesson.status !== 201) throw new Error(`POST /api/courses/${courseId}/lessons answered ${lesson.status}: ${lesson.text}`);
    const lessonId = (JSON.parse(lesson.text) as { id: string }).id;
    const tool = (label: string, path: string, body: () => unknown, standIn?: string): Tool => ({ label, path, body, overheads: [], models: [], failures: [], ...(standIn ? { standIn } : {}) });
    tools = [
      tool('landing page (POST /api/landing-pages/generate)', '/api/landing-pages/generate', () => ({
        companyName: 'Sourdough School',
        businessType: 'education',
        colorTheme: 'warm',
        missionStatement: 'We teach home bakers to bake real bread.',
        problemSolved: 'Bread from the shop is dull and costly.',
      })),
      tool('course outline (POST /api/ai/course-outline)', '/api/ai/course-outline', () => ({ topic: 'Sourdough baking at home', audience: 'home bakers', lessons: 6 }), 'course_outline'),
      tool('lesson draft (POST /api/ai/lesson-draft)', '/api/ai/lesson-draft', () => ({ courseId, title: 'Shaping a loaf', summary: 'Pre-shape, rest, final shape, banneton.' }), 'lesson_draft'),
      tool('quiz from a lesson (POST /api/ai/quiz-from-lesson)', '/api/ai/quiz-from-lesson', () => ({ courseId, lessonId, questions: 5 }), 'quiz_from_lesson'),
    ];
  } catch (error) {
    return [errorRow('AI tools bench: creator, credits, course and lesson', error)];
  }

  const lastModelCall = async (): Promise<{ tool?: string; status: number; latencyMs: number } | undefined> => {
    const res = await fetch(`${cloud.outputs.BedrockEndpoint}/_stand-in/calls`);
    const { calls } = (await res.json()) as { calls: { tool?: string; status: number; latencyMs: number }[] };
    return calls.at(-1);
  };

  try {
    log(`the four AI tools in turn: ${WARM_UP_ROUNDS} warm-up rounds, ${ROUNDS} measured`);
    for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
      for (let i = 0; i < tools.length; i++) {
        const tool = tools[(round + i) % tools.length]!;
        const started = performance.now();
        const res = await call(token, 'POST', tool.path, tool.body());
        const elapsed = performance.now() - started;
        const model = await lastModelCall();
        if (round < WARM_UP_ROUNDS) continue;
        if (res.status !== 200 || !model || model.status !== 200 || model.tool !== tool.standIn) {
          tool.failures.push(`${res.status}${model ? ` (model ${model.status}, ${model.tool ?? 'page'})` : ''}`);
          continue;
        }
        tool.models.push(model.latencyMs);
        tool.overheads.push(elapsed - model.latencyMs);
      }
    }
    const landing = tools[0]!;
    const base = percentile(landing.overheads, 50);
    const rows: Row[] = [];
    for (const tool of tools) {
      const p50 = percentile(tool.overheads, 50);
      const clean = tool.failures.length === 0 && landing.failures.length === 0;
      rows.push(row(`${tool.label}: overhead p50 / p99, model p50 (${count(tool.overheads.length)} calls)`, `${ms(p50)} / ${ms(percentile(tool.overheads, 99))}, ${ms(percentile(tool.models, 50))}`));
      if (tool === landing) continue;
      const ratio = p50 / base;
      rows.push(
        row(
          `${tool.label.split(' (')[0]}: overhead p50 / the landing page's; failed calls`,
          `${ratio.toFixed(2)}x; ${tool.failures.length}${tool.failures[0] ? ` (first: ${tool.failures[0]})` : ''}`,
          `<= ${RATIO_BUDGET}x; 0`,
          clean && ratio <= RATIO_BUDGET,
        ),
      );
    }
    return rows;
  } catch (error) {
    return [errorRow('AI tools overhead', error)];
  }
};

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { runPartAlone } = await import('./cloud-part.ts');
  await runPartAlone('ai-tools', aiToolsSection, benchAiTools);
}
