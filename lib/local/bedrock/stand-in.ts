import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { escapeHtml, jsonReplies, readBody } from '../http-replies.ts';
import { listenAt } from '../http-server.ts';
import { hostileVariant, proseAnswer, truncatedVariant } from './answers.ts';
import { draftAnswer, hostileDraft, isDraftTool, proseDraft, truncatedDraft, type DraftToolName } from './drafts.ts';
import { extractFields, type LandingFields } from './prompt-fields.ts';

/**
 * The local Bedrock Runtime: answers the Converse API (`POST /model/{modelId}/converse`) with a complete landing
 * page built from the fields it finds in the prompt, so generation works offline and deterministically; a call that
 * forces one of the drafting tools (`toolConfig.toolChoice.tool.name`: course_outline, lesson_draft,
 * quiz_from_lesson) is answered with that tool's input built from the prompt's data (drafts.ts), in the same modes.
 *
 * Test controls (not Bedrock's API) live under `/_stand-in/`, so the refund, timeout and sanitizer paths can be
 * driven by hand or by a test against the running local cloud:
 * - `POST /_stand-in/fail-next {"count": 1, "status": 500, "type"?: "..."}`: the next calls answer that AWS error
 *   (429 ThrottlingException, 500 InternalServerException, 424 ModelErrorException, ...).
 * - `POST /_stand-in/mode {"mode": "hostile" | "slow" | "truncated" | "not-html" | "fail" | "normal", "count": 1,
 *   "delayMs"?: 5000, "status"?: 500}`: the next `count` successful answers are a page full of script and every other
 *   kind of active content (hostile), the good page after `delayMs` (slow, 5 s unless given; `delayMs` also delays
 *   the other modes), half a page with stopReason `max_tokens` (truncated), or prose with no HTML (not-html).
 *   `fail` is the same as fail-next; `normal` clears the mode. Failures set by fail-next come first.
 * - `POST /_stand-in/reset`: no failures, no mode, an empty call list.
 * - `GET /_stand-in/calls`: the calls received (model id, the fields read, status, what was answered), newest last.
 * - `GET /_stand-in/mode`: the failures and the mode still pending.
 */
export interface BedrockStandInOptions {
  port: number;
  host?: string;
  /** Added to every answer, to see the UI's busy state as with a real model. */
  latencyMs?: number;
}

/** What a successful answer holds: the good page, or one of the answers the caller must not trust (answers.ts). */
export type AnswerKind = 'page' | 'hostile' | 'truncated' | 'not-html';

/** The modes `POST /_stand-in/mode` accepts: `slow` is the good page, late; `fail` and `normal` set or clear. */
export const standInModes = ['hostile', 'slow', 'truncated', 'not-html', 'fail', 'normal'] as const;
export type StandInMode = (typeof standInModes)[number];

export interface RecordedCall {
  modelId: string;
  at: string;
  fields: LandingFields;
  /** The HTTP status the stand-in answered with. */
  status: number;
  /** What a 200 carried; 'error' for a simulated or validation failure. */
  answer: AnswerKind | 'error';
  /** The drafting tool the call forced, if any. */
  tool?: DraftToolName;
  /** How long the answer took (the `metrics.latencyMs` a 200 carries, as Bedrock's): the model's share of a call. */
  latencyMs: number;
}

export interface BedrockState {
  /** Remaining calls to fail, and how. */
  failures: { remaining: number; status: number; type: string };
  /** Remaining successful calls to answer in a test mode, and how late. */
  mode: { kind: AnswerKind; remaining: number; delayMs: number };
  calls: RecordedCall[];
}

/** How late a `slow` answer comes unless `delayMs` says otherwise: long enough to see the busy state. */
export const DEFAULT_SLOW_DELAY_MS = 5000;
const MAX_DELAY_MS = 10 * 60 * 1000;

export interface BedrockStandIn {
  url: string;
  state: BedrockState;
  stop(): Promise<void>;
}

// ---- writing the page ----

interface Palette {
  primary: string;
  primaryDark: string;
  accent: string;
  background: string;
  surface: string;
  text: string;
  muted: string;
  headingFont: string;
}

const sans = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const serif = 'Georgia, "Times New Roman", serif';

/** One palette per colour theme of the generator form; every primary carries white text at AA contrast. */
export const palettes: Record<string, Palette> = {
  professional: { primary: '#1e3a8a', primaryDark: '#172554', accent: '#3b82f6', background: '#f8fafc', surface: '#ffffff', text: '#0f172a', muted: '#475569', headingFont: sans },
  modern: { primary: '#4f46e5', primaryDark: '#3730a3', accent: '#06b6d4', background: '#ffffff', surface: '#f5f5ff', text: '#111827', muted: '#4b5563', headingFont: sans },
  warm: { primary: '#c2410c', primaryDark: '#9a3412', accent: '#f59e0b', background: '#fffbeb', surface: '#ffffff', text: '#292524', muted: '#57534e', headingFont: serif },
  fresh: { primary: '#047857', primaryDark: '#065f46', accent: '#34d399', background: '#f0fdf4', surface: '#ffffff', text: '#052e16', muted: '#3f6212', headingFont: sans },
  elegant: { primary: '#1f2937', primaryDark: '#111827', accent: '#b08d57', background: '#faf7f2', surface: '#ffffff', text: '#1f2937', muted: '#57534e', headingFont: serif },
  vibrant: { primary: '#be185d', primaryDark: '#9d174d', accent: '#7c3aed', background: '#fdf2f8', surface: '#ffffff', text: '#1f1235', muted: '#5b4a6b', headingFont: sans },
};

const features: Record<string, { tagline: string; items: [string, string][] }> = {
  business: { tagline: 'Grow with confidence', items: [['Clear strategy', 'Practical plans you can act on this week.'], ['Trusted expertise', 'Years of experience, shared openly.'], ['Measurable results', 'We track what matters and report it plainly.']] },
  technology: { tagline: 'Technology that just works', items: [['Built to scale', 'Reliable foundations that grow with you.'], ['Secure by design', 'Your data protected at every step.'], ['Fast to adopt', 'Up and running in minutes, not months.']] },
  design: { tagline: 'Design that speaks for you', items: [['Thoughtful craft', 'Every detail considered, nothing wasted.'], ['Your identity', 'Work that looks and feels like you.'], ['Collaborative process', 'We design with you, not just for you.']] },
  health: { tagline: 'Feel better, every day', items: [['Expert guidance', 'Advice grounded in evidence and care.'], ['Personal plans', 'Built around your life and your goals.'], ['Lasting habits', 'Small steps that add up to real change.']] },
  education: { tagline: 'Learn what matters', items: [['Structured courses', 'Step-by-step lessons that build on each other.'], ['Learn at your pace', 'Study anywhere, pick up where you left off.'], ['Track your progress', 'See how far you have come at a glance.']] },
  finance: { tagline: 'Make your money work', items: [['Plain-English advice', 'No jargon, just clear next steps.'], ['Smart planning', 'Tools to budget, save and invest wisely.'], ['Peace of mind', 'Decisions you can feel sure about.']] },
  lifestyle: { tagline: 'Live the life you want', items: [['Inspiration daily', 'Fresh ideas to brighten your routine.'], ['Community', 'Connect with people who share your passions.'], ['Simple steps', 'Easy changes with a big difference.']] },
  other: { tagline: 'Made for people like you', items: [['Focused on you', 'Everything we do starts with your needs.'], ['Quality first', 'We do fewer things, and do them well.'], ['Here to help', 'Real people, ready when you need us.']] },
};

export const renderLandingPage = (fields: LandingFields): string => {
  const theme = fields.colorTheme.toLowerCase().trim();
  const palette = palettes[theme] ?? palettes.professional!;
  const kind = features[fields.businessType.toLowerCase().trim()] ?? features.other!;
  const name = escapeHtml(fields.companyName);
  const mission = escapeHtml(fields.missionStatement);
  const problem = escapeHtml(fields.problemSolved);
  const industry = escapeHtml(fields.businessType.toLowerCase());
  const year = new Date().getUTCFullYear();
  const cards = kind.items
    .map(([title, text]) => `      <article class="card">\n        <h3>${escapeHtml(title)}</h3>\n        <p>${escapeHtml(text)}</p>\n      </article>`)
    .join('\n');

  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${name} | ${escapeHtml(kind.tagline)}</title>
  <meta name="description" content="${mission}">
  <style>
    *, *::before, *::after { box-sizing: border-box; }
    body { margin: 0; font-family: ${sans}; line-height: 1.6; color: ${palette.text}; background: ${palette.background}; }
    h1, h2, h3 { font-family: ${palette.headingFont}; line-height: 1.2; margin: 0 0 0.75rem; }
    a { color: ${palette.primary}; }
    .container { width: min(1100px, 100% - 2.5rem); margin-inline: auto; }
    .site-header { background: ${palette.surface}; border-bottom: 1px solid rgba(0, 0, 0, 0.08); }
    .site-header .container { display: flex; align-items: center; justify-content: space-between; padding-block: 1rem; gap: 1rem; flex-wrap: wrap; }
    .brand { font-weight: 700; font-size: 1.25rem; color: ${palette.primary}; text-decoration: none; }
    nav ul { list-style: none; display: flex; gap: 1.5rem; margin: 0; padding: 0; }
    nav a { color: ${palette.text}; text-decoration: none; font-weight: 500; }
    nav a:hover, nav a:focus-visible { color: ${palette.primary}; text-decoration: underline; }
    .hero { background: linear-gradient(135deg, ${palette.primary} 0%, ${palette.primaryDark} 100%); color: #ffffff; padding-block: 5rem; }
    .hero .eyebrow { text-transform: uppercase; letter-spacing: 0.12em; font-size: 0.85rem; opacity: 0.9; margin: 0 0 0.75rem; }
    .hero h1 { font-size: clamp(2.2rem, 5vw, 3.5rem); }
    .hero p.lead { font-size: 1.2rem; max-width: 40rem; opacity: 0.95; }
    .button { display: inline-block; padding: 0.85rem 1.6rem; border-radius: 999px; font-weight: 600; text-decoration: none; }
    .button-light { background: #ffffff; color: ${palette.primaryDark}; }
    .button-primary { background: ${palette.primary}; color: #ffffff; }
    .button:hover, .button:focus-visible { filter: brightness(1.08); outline: 3px solid ${palette.accent}; outline-offset: 2px; }
    section { padding-block: 4rem; }
    .split { display: grid; grid-template-columns: repeat(auto-fit, minmax(280px, 1fr)); gap: 2.5rem; align-items: start; }
    .panel { background: ${palette.surface}; border-radius: 16px; padding: 2rem; box-shadow: 0 10px 30px rgba(15, 23, 42, 0.08); border-top: 4px solid ${palette.accent}; }
    .muted { color: ${palette.muted}; }
    .features { display: grid; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); gap: 1.5rem; margin-top: 2rem; }
    .card { background: ${palette.surface}; border-radius: 14px; padding: 1.75rem; border: 1px solid rgba(0, 0, 0, 0.06); }
    .card h3 { color: ${palette.primary}; font-size: 1.15rem; }
    .card p { margin: 0; color: ${palette.muted}; }
    .cta { background: ${palette.surface}; text-align: center; }
    .cta p { max-width: 36rem; margin: 0 auto 1.5rem; color: ${palette.muted}; }
    footer { background: ${palette.primaryDark}; color: #ffffff; padding-block: 2rem; font-size: 0.9rem; }
    footer p { margin: 0; opacity: 0.9; }
    @media (max-width: 600px) { nav ul { gap: 1rem; } .hero { padding-block: 3.5rem; } section { padding-block: 3rem; } }
  </style>
</head>
<body>
  <header class="site-header">
    <div class="container">
      <a class="brand" href="#top">${name}</a>
      <nav aria-label="Main">
        <ul>
          <li><a href="#mission">Mission</a></li>
          <li><a href="#solution">What we solve</a></li>
          <li><a href="#features">Why us</a></li>
          <li><a href="#contact">Contact</a></li>
        </ul>
      </nav>
    </div>
  </header>
  <main id="top">
    <section class="hero" aria-labelledby="hero-title">
      <div class="container">
        <p class="eyebrow">${industry}</p>
        <h1 id="hero-title">${name}</h1>
        <p class="lead">${escapeHtml(kind.tagline)}. ${mission}</p>
        <a class="button button-light" href="#contact">Get started</a>
      </div>
    </section>
    <section id="mission" aria-labelledby="mission-title">
      <div class="container split">
        <div>
          <h2 id="mission-title">Our mission</h2>
          <p class="muted">Why ${name} exists, in one sentence.</p>
        </div>
        <div class="panel">
          <p>${mission}</p>
        </div>
      </div>
    </section>
    <section id="solution" aria-labelledby="solution-title">
      <div class="container split">
        <div class="panel">
          <h2 id="solution-title">The problem we solve</h2>
          <p>${problem}</p>
        </div>
        <div>
          <h3>How we help</h3>
          <p class="muted">${name} turns that problem into a clear path forward, with guidance and tools designed for ${industry}.</p>
        </div>
      </div>
    </section>
    <section id="features" aria-labelledby="features-title">
      <div class="container">
        <h2 id="features-title">Why choose ${name}</h2>
        <div class="features">
${cards}
        </div>
      </div>
    </section>
    <section id="contact" class="cta" aria-labelledby="contact-title">
      <div class="container">
        <h2 id="contact-title">Ready to begin?</h2>
        <p>Join the people who already rely on ${name}. It takes less than a minute to get started.</p>
        <a class="button button-primary" href="#top">Start today</a>
      </div>
    </section>
  </main>
  <footer>
    <div class="container">
      <p>&copy; ${year} ${name}. All rights reserved.</p>
    </div>
  </footer>
</body>
</html>`;
};

// ---- the HTTP server ----

/** Bedrock's error names by status, for the `fail-next` control and validation failures. */
const errorTypes: Record<number, string> = {
  400: 'ValidationException',
  403: 'AccessDeniedException',
  404: 'ResourceNotFoundException',
  408: 'ModelTimeoutException',
  424: 'ModelErrorException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
  503: 'ServiceUnavailableException',
};

const errorMessages: Record<string, string> = {
  ThrottlingException: 'Too many requests, please wait before trying again.',
  InternalServerException: 'The server encountered an internal error. Try again later.',
  ServiceUnavailableException: 'The service is temporarily unavailable. Try again later.',
  ModelTimeoutException: 'The model timed out while processing the request.',
};

const sendJson = jsonReplies({ headers: () => ({ 'x-amzn-RequestId': randomUUID() }) });

/** AWS JSON errors: the SDK reads the exception name from `x-amzn-ErrorType` and the text from `message`. */
const sendError = (res: ServerResponse, status: number, type: string, message: string): void =>
  sendJson(res, status, { message }, { 'x-amzn-ErrorType': type });

interface ContentBlock {
  text?: unknown;
}
interface Message {
  role?: unknown;
  content?: unknown;
}

const textOf = (blocks: unknown): string =>
  Array.isArray(blocks)
    ? blocks
        .map((block: ContentBlock) => (typeof block?.text === 'string' ? block.text : ''))
        .filter(Boolean)
        .join('\n')
    : '';

const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

const maxRecordedCalls = 100;

const answerText = (answer: AnswerKind, fields: LandingFields): string => {
  if (answer === 'not-html') return proseAnswer(fields);
  const page = renderLandingPage(fields);
  if (answer === 'hostile') return hostileVariant(page, fields);
  if (answer === 'truncated') return truncatedVariant(page);
  return page;
};

export const startBedrockStandIn = async (options: BedrockStandInOptions): Promise<BedrockStandIn> => {
  const host = options.host ?? '127.0.0.1';
  const initialState = (): BedrockState => ({
    failures: { remaining: 0, status: 500, type: 'InternalServerException' },
    mode: { kind: 'page', remaining: 0, delayMs: 0 },
    calls: [],
  });
  const state: BedrockState = initialState();

  // Delayed answers end at once when the stand-in stops, so a stop never waits for (or outlives) a slow answer.
  const waits = new Set<() => void>();
  const wait = (ms: number): Promise<void> =>
    ms <= 0
      ? Promise.resolve()
      : new Promise((resolve) => {
          const done = () => {
            clearTimeout(timer);
            waits.delete(done);
            resolve();
          };
          const timer = setTimeout(done, ms);
          waits.add(done);
        });

  const record = (call: RecordedCall): void => {
    state.calls.push(call);
    if (state.calls.length > maxRecordedCalls) state.calls.shift();
  };

  const converse = async (res: ServerResponse, modelId: string, raw: string): Promise<void> => {
    const started = Date.now();
    let body: {
      messages?: unknown;
      system?: unknown;
      inferenceConfig?: { maxTokens?: unknown };
      toolConfig?: { toolChoice?: { tool?: { name?: unknown } } };
    };
    try {
      body = JSON.parse(raw) as typeof body;
    } catch {
      return sendError(res, 400, 'ValidationException', 'Malformed input request, please reformat your input and try again.');
    }
    const messages = Array.isArray(body.messages) ? (body.messages as Message[]) : [];
    if (messages.length === 0) {
      return sendError(res, 400, 'ValidationException', 'The model returned the following errors: messages: at least one message is required');
    }
    if (messages[0]?.role !== 'user') {
      return sendError(res, 400, 'ValidationException', 'A conversation must start with a user message. Try again with a conversation that starts with a user message.');
    }
    const userText = messages.filter((message) => message.role === 'user').map((message) => textOf(message.content)).join('\n');
    const fields = extractFields(userText);
    const forced = body.toolConfig?.toolChoice?.tool?.name;
    const tool = isDraftTool(forced) ? forced : undefined;

    if (state.failures.remaining > 0) {
      state.failures.remaining -= 1;
      const { status, type } = state.failures;
      record({ modelId, at: new Date().toISOString(), fields, status, answer: 'error', ...(tool ? { tool } : {}), latencyMs: Date.now() - started });
      return sendError(res, status, type, errorMessages[type] ?? `Simulated ${type} from the local Bedrock stand-in.`);
    }

    let answer: AnswerKind = 'page';
    let delayMs = options.latencyMs ?? 0;
    if (state.mode.remaining > 0) {
      state.mode.remaining -= 1;
      answer = state.mode.kind;
      delayMs += state.mode.delayMs;
    }
    await wait(delayMs);
    if (tool) return answerTool(res, { modelId, tool, answer, userText, started, system: textOf(body.system) });
    let text = answerText(answer, fields);
    let stopReason = answer === 'truncated' ? 'max_tokens' : 'end_turn';
    const maxTokens = typeof body.inferenceConfig?.maxTokens === 'number' ? body.inferenceConfig.maxTokens : undefined;
    // Like a real model, a page longer than maxTokens is cut off, which the caller must notice.
    if (maxTokens !== undefined && estimateTokens(text) > maxTokens) {
      text = text.slice(0, maxTokens * 4);
      stopReason = 'max_tokens';
    }
    const inputTokens = estimateTokens(textOf(body.system) + messages.map((message) => textOf(message.content)).join(''));
    const outputTokens = estimateTokens(text);
    const latencyMs = Date.now() - started;
    record({ modelId, at: new Date().toISOString(), fields, status: 200, answer, latencyMs });
    sendJson(res, 200, {
      output: { message: { role: 'assistant', content: [{ text }] } },
      stopReason,
      usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
      metrics: { latencyMs },
    });
  };

  /** A drafting tool's answer: its input in a toolUse block (or prose, for not-html), stopReason tool_use. */
  const answerTool = (
    res: ServerResponse,
    call: { modelId: string; tool: DraftToolName; answer: AnswerKind; userText: string; started: number; system: string },
  ): void => {
    const good = draftAnswer(call.tool, call.userText);
    const input = call.answer === 'hostile' ? hostileDraft(call.tool, good) : call.answer === 'truncated' ? truncatedDraft(call.tool, good) : good;
    const content = call.answer === 'not-html' ? [{ text: proseDraft(call.tool) }] : [{ toolUse: { toolUseId: `tooluse_${randomUUID()}`, name: call.tool, input } }];
    const stopReason = call.answer === 'truncated' ? 'max_tokens' : call.answer === 'not-html' ? 'end_turn' : 'tool_use';
    const inputTokens = estimateTokens(call.system + call.userText);
    const outputTokens = estimateTokens(JSON.stringify(content));
    const latencyMs = Date.now() - call.started;
    record({ modelId: call.modelId, at: new Date().toISOString(), fields: extractFields(''), status: 200, answer: call.answer, tool: call.tool, latencyMs });
    sendJson(res, 200, {
      output: { message: { role: 'assistant', content } },
      stopReason,
      usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
      metrics: { latencyMs },
    });
  };

  const countOf = (value: unknown): number => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : 1);

  const setFailures = (body: { count?: unknown; status?: unknown; type?: unknown }): void => {
    const status = typeof body.status === 'number' && body.status >= 400 && body.status <= 599 ? body.status : 500;
    const type = typeof body.type === 'string' && body.type ? body.type : (errorTypes[status] ?? 'InternalServerException');
    state.failures = { remaining: countOf(body.count), status, type };
  };

  const pending = () => ({ failures: state.failures, mode: state.mode });

  const failNext = (res: ServerResponse, raw: string): void => {
    let body: { count?: unknown; status?: unknown; type?: unknown } = {};
    try {
      body = raw.trim() ? (JSON.parse(raw) as typeof body) : {};
    } catch {
      return sendJson(res, 400, { message: 'Body must be JSON: {"count": 1, "status": 500}' });
    }
    setFailures(body);
    sendJson(res, 200, { failures: state.failures });
  };

  const setMode = (res: ServerResponse, raw: string): void => {
    const usage = `Body must be JSON: {"mode": "${standInModes.join('" | "')}", "count": 1, "delayMs"?: ${DEFAULT_SLOW_DELAY_MS}}`;
    let body: { mode?: unknown; count?: unknown; delayMs?: unknown; status?: unknown; type?: unknown };
    try {
      body = JSON.parse(raw) as typeof body;
    } catch {
      return sendJson(res, 400, { message: usage });
    }
    const mode = standInModes.find((candidate) => candidate === body?.mode);
    const delay = body?.delayMs;
    if (!mode || (delay !== undefined && (typeof delay !== 'number' || !Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_MS))) {
      return sendJson(res, 400, { message: `${usage}; delayMs is whole milliseconds up to ${MAX_DELAY_MS}.` });
    }
    if (mode === 'fail') setFailures(body);
    else if (mode === 'normal') state.mode = { kind: 'page', remaining: 0, delayMs: 0 };
    else {
      state.mode = {
        kind: mode === 'slow' ? 'page' : mode,
        remaining: countOf(body.count),
        delayMs: typeof delay === 'number' ? delay : mode === 'slow' ? DEFAULT_SLOW_DELAY_MS : 0,
      };
    }
    sendJson(res, 200, pending());
  };

  const reset = (res: ServerResponse): void => {
    Object.assign(state, initialState());
    sendJson(res, 200, pending());
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const converseMatch = /^\/model\/([^/]+)\/converse$/.exec(path);
    if (req.method === 'POST' && converseMatch) return converse(res, decodeURIComponent(converseMatch[1] ?? ''), raw);
    if (req.method === 'POST' && /^\/model\/[^/]+\/converse-stream$/.test(path)) {
      return sendError(res, 400, 'ValidationException', 'The local Bedrock stand-in answers Converse only, not ConverseStream.');
    }
    if (req.method === 'POST' && path === '/_stand-in/fail-next') return failNext(res, raw);
    if (req.method === 'POST' && path === '/_stand-in/mode') return setMode(res, raw);
    if (req.method === 'GET' && path === '/_stand-in/mode') return sendJson(res, 200, pending());
    if (req.method === 'POST' && path === '/_stand-in/reset') return reset(res);
    if (req.method === 'GET' && path === '/_stand-in/calls') return sendJson(res, 200, { calls: state.calls });
    if (req.method === 'GET' && path === '/_stand-in/health') return sendJson(res, 200, { ok: true });
    sendError(res, 404, 'UnknownOperationException', `The local Bedrock stand-in does not implement ${req.method} ${path}.`);
  };

  const server = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      console.warn(`[bedrock stand-in] ${req.method} ${req.url} failed: ${(error as Error)?.stack ?? String(error)}`);
      if (res.headersSent) res.destroy();
      else sendError(res, 500, 'InternalServerException', 'The stand-in failed to handle this request.');
    });
  });

  const url = await listenAt(server, options.port, host);

  return {
    url,
    state,
    async stop() {
      for (const done of [...waits]) done();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
};
