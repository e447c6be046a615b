import { BedrockRuntimeClient, ConverseCommand, type ConverseCommandInput } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { extractFields } from '#lib/local/bedrock/prompt-fields.ts';
import { renderLandingPage, startBedrockStandIn, type BedrockStandIn } from '#lib/local/bedrock/stand-in.ts';

const modelId = 'anthropic.claude-3-haiku-20240307-v1:0';
let standIn: BedrockStandIn;
let client: BedrockRuntimeClient;

const converse = (userText: string, extra: Partial<ConverseCommandInput> = {}) =>
  client.send(
    new ConverseCommand({
      modelId,
      system: [{ text: 'You write complete, self-contained landing pages in HTML. Answer with HTML only.' }],
      messages: [{ role: 'user', content: [{ text: userText }] }],
      inferenceConfig: { maxTokens: 4096, temperature: 0.7 },
      ...extra,
    }),
  );

const control = (path: string, body?: unknown) =>
  fetch(`${standIn.url}/_stand-in/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

const failNext = async (body: unknown) => {
  expect((await control('fail-next', body)).status).toBe(200);
};

const setMode = async (body: unknown) => {
  expect((await control('mode', body)).status).toBe(200);
};

const textOf = (answer: Awaited<ReturnType<typeof converse>>) => answer.output?.message?.content?.[0]?.text ?? '';

type Call = { modelId: string; status: number; answer: string; fields: { companyName: string; businessType: string } };
const calls = async (): Promise<Call[]> => ((await (await fetch(`${standIn.url}/_stand-in/calls`)).json()) as { calls: Call[] }).calls;

beforeAll(async () => {
  standIn = await startBedrockStandIn({ port: 0 });
  client = new BedrockRuntimeClient({
    region: 'eu-west-2',
    endpoint: standIn.url,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    requestHandler: new NodeHttpHandler(),
    // One attempt, so each simulated failure reaches the caller (the SDK retries 5xx and throttling by default).
    maxAttempts: 1,
  });
});

afterAll(async () => {
  client?.destroy();
  await standIn?.stop();
});

describe('the Bedrock stand-in, driven by the official ConverseCommand', () => {
  it('answers with a complete landing page built from key: value lines', async () => {
    const answer = await converse(
      [
        'Create a landing page for this business.',
        'companyName: Bright Path Academy',
        'businessType: education',
        'colorTheme: fresh',
        'missionStatement: We help adults learn to code in twelve weeks.',
        'problemSolved: Career changers cannot find structured, affordable courses.',
      ].join('\n'),
    );
    expect(answer.stopReason).toBe('end_turn');
    expect(answer.output?.message?.role).toBe('assistant');
    const html = answer.output?.message?.content?.[0]?.text ?? '';
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(html).toContain('<h1 id="hero-title">Bright Path Academy</h1>');
    expect(html).toContain('We help adults learn to code in twelve weeks.');
    expect(html).toContain('Career changers cannot find structured, affordable courses.');
    expect(html).toContain('Learn what matters');
    expect(html).toContain('#047857');
    expect(html).not.toMatch(/<script|\son[a-z]+\s*=|javascript:|<iframe|<link /i);
    expect(answer.usage?.inputTokens).toBeGreaterThan(0);
    expect(answer.usage?.totalTokens).toBe((answer.usage?.inputTokens ?? 0) + (answer.usage?.outputTokens ?? 0));
    expect(answer.metrics?.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('reads the fields from a JSON object in the prompt and escapes them', async () => {
    const fields = {
      companyName: 'Tom & Jerry <Design>',
      businessType: 'design',
      colorTheme: 'vibrant',
      missionStatement: 'Bold brands for small studios.',
      problemSolved: 'Small studios look generic.',
    };
    const answer = await converse(`Generate the page from these settings:\n${JSON.stringify(fields, null, 2)}`);
    const html = answer.output?.message?.content?.[0]?.text ?? '';
    expect(html).toContain('Tom &#38; Jerry &#60;Design&#62;');
    expect(html).not.toContain('<Design>');
    expect(html).toContain('#be185d');
    expect(html).toContain('Design that speaks for you');
  });

  it('gives each of the six colour themes its own palette', () => {
    const themes = ['professional', 'modern', 'warm', 'fresh', 'elegant', 'vibrant'];
    const heroColours = themes.map((colorTheme) => {
      const html = renderLandingPage(extractFields(`companyName: Acme\ncolorTheme: ${colorTheme}`));
      return /\.hero \{ background: linear-gradient\(135deg, (#[0-9a-f]{6})/.exec(html)?.[1];
    });
    expect(heroColours.every(Boolean)).toBe(true);
    expect(new Set(heroColours).size).toBe(6);
  });

  it('cuts the page at maxTokens and says so, like a real model', async () => {
    const answer = await converse('companyName: Tiny', { inferenceConfig: { maxTokens: 50 } });
    expect(answer.stopReason).toBe('max_tokens');
    expect(answer.output?.message?.content?.[0]?.text?.length).toBe(200);
  });

  it('fails the next calls with a throttling error on request, then recovers', async () => {
    await failNext({ count: 2, status: 429 });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      await expect(converse('companyName: Throttled')).rejects.toMatchObject({
        name: 'ThrottlingException',
        $metadata: { httpStatusCode: 429 },
      });
    }
    const answer = await converse('companyName: Recovered');
    expect(answer.output?.message?.content?.[0]?.text).toContain('Recovered');
  });

  it('fails with an internal server error on request', async () => {
    await failNext({ count: 1, status: 500 });
    await expect(converse('companyName: Broken')).rejects.toMatchObject({
      name: 'InternalServerException',
      $metadata: { httpStatusCode: 500 },
    });
    await expect(converse('companyName: Fine')).resolves.toMatchObject({ stopReason: 'end_turn' });
  });

  it('refuses a conversation that does not start with a user message', async () => {
    await expect(
      converse('', { messages: [{ role: 'assistant', content: [{ text: 'Hello' }] }] }),
    ).rejects.toMatchObject({ name: 'ValidationException', $metadata: { httpStatusCode: 400 } });
  });

  it('records the calls it received, with the model id and the fields it read', async () => {
    await converse('companyName: Recorded Co\nbusinessType: finance');
    expect((await calls()).at(-1)).toMatchObject({
      modelId,
      status: 200,
      answer: 'page',
      fields: { companyName: 'Recorded Co', businessType: 'finance' },
    });
  });
});

describe('the Bedrock stand-in test modes', () => {
  beforeEach(async () => {
    expect((await control('reset')).status).toBe(200);
  });

  it('answers a designed page full of every kind of active content when told to be hostile, then the good page again', async () => {
    await setMode({ mode: 'hostile' });
    const hostile = await converse('companyName: Evil Corp\ncolorTheme: warm');
    const html = textOf(hostile);
    expect(hostile.stopReason).toBe('end_turn');
    expect(html).toContain('<h1 id="hero-title">Evil Corp</h1>');
    expect(html).toContain('#c2410c');
    for (const pattern of [
      /<script>/i,
      /<script src=/i,
      /\son(load|error|click|focus|mouseover)\s*=/i,
      /href="javascript:/i,
      /href="JaVaScRiPt:/,
      /href="&#106;avascript:/,
      /href="data:text\/html/i,
      /url\("?javascript:/i,
      /<iframe src=/i,
      /<iframe srcdoc=/i,
      /<object /i,
      /<embed /i,
      /<base href=/i,
      /<meta http-equiv="refresh"/i,
      /<form action="https:\/\/attacker\.example/i,
      /formaction="javascript:/i,
      /<svg[^>]*onload=/i,
    ]) {
      expect(html).toMatch(pattern);
    }
    expect(textOf(await converse('companyName: Good Corp'))).not.toMatch(/<script|javascript:|<iframe/i);
  });

  it('keeps a hostile company name escaped inside the hostile page', async () => {
    await setMode({ mode: 'hostile' });
    const html = textOf(await converse(JSON.stringify({ companyName: '<b onclick="steal()">Bold</b>' })));
    expect(html).not.toContain('<b onclick');
    expect(html).toContain('Stay in touch with &#60;b onclick=&#34;steal()&#34;&#62;Bold&#60;/b&#62;');
  });

  it('answers half a page that stops at the token limit when told to truncate', async () => {
    await setMode({ mode: 'truncated' });
    const answer = await converse('companyName: Cut Short');
    const html = textOf(answer);
    expect(answer.stopReason).toBe('max_tokens');
    expect(html).toMatch(/<html[\s>]/);
    expect(html).toContain('<body>');
    expect(html).not.toContain('</body>');
    expect(html).not.toContain('</html>');
  });

  it('answers prose with no HTML at all when told not-html', async () => {
    await setMode({ mode: 'not-html' });
    const answer = await converse('companyName: Chatty Ltd\nmissionStatement: Talk less, do more.');
    const text = textOf(answer);
    expect(answer.stopReason).toBe('end_turn');
    expect(text).toContain('Chatty Ltd');
    expect(text).toContain('Talk less, do more.');
    expect(text).not.toContain('<');
  });

  it('answers the good page late when told to be slow', async () => {
    await setMode({ mode: 'slow', delayMs: 400 });
    const started = Date.now();
    const answer = await converse('companyName: Slowpoke');
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    expect(textOf(answer)).toContain('<h1 id="hero-title">Slowpoke</h1>');
    expect(answer.metrics?.latencyMs).toBeGreaterThanOrEqual(390);
    const next = Date.now();
    await converse('companyName: Quick');
    expect(Date.now() - next).toBeLessThan(390);
  });

  it('applies a mode to the next count calls only, and says what each call was answered with', async () => {
    await setMode({ mode: 'not-html', count: 2 });
    const answers = [];
    for (const name of ['One', 'Two', 'Three']) answers.push(textOf(await converse(`companyName: ${name}`)));
    expect(answers.map((text) => text.startsWith('<!DOCTYPE html>'))).toEqual([false, false, true]);
    expect((await calls()).map((call) => call.answer)).toEqual(['not-html', 'not-html', 'page']);
  });

  it('fails through the mode control too, and a failure comes before a pending mode', async () => {
    await setMode({ mode: 'hostile' });
    await setMode({ mode: 'fail', status: 424 });
    await expect(converse('companyName: Broken')).rejects.toMatchObject({ name: 'ModelErrorException', $metadata: { httpStatusCode: 424 } });
    expect(textOf(await converse('companyName: Then Hostile'))).toContain('<script>');
    expect((await calls()).map((call) => [call.status, call.answer])).toEqual([[424, 'error'], [200, 'hostile']]);
  });

  it('reports what is pending and forgets it all on reset', async () => {
    await setMode({ mode: 'truncated', count: 3 });
    await failNext({ count: 1, status: 503 });
    await converse('companyName: Before Reset').catch(() => undefined);
    const before = (await (await fetch(`${standIn.url}/_stand-in/mode`)).json()) as { mode: { kind: string; remaining: number } };
    expect(before.mode).toMatchObject({ kind: 'truncated', remaining: 3 });

    expect((await control('reset')).status).toBe(200);
    expect(await calls()).toEqual([]);
    const answer = await converse('companyName: After Reset');
    expect(answer.stopReason).toBe('end_turn');
    expect(textOf(answer)).toContain('</html>');
  });

  it('refuses an unknown mode or a bad delay, naming the modes it knows', async () => {
    for (const body of [{ mode: 'evil' }, { mode: 'slow', delayMs: -1 }, { mode: 'slow', delayMs: 'soon' }]) {
      const res = await control('mode', body);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain('"hostile" | "slow" | "truncated" | "not-html"');
    }
  });

  it('stops at once while a slow answer is still pending', async () => {
    const own = await startBedrockStandIn({ port: 0 });
    await fetch(`${own.url}/_stand-in/mode`, { method: 'POST', body: JSON.stringify({ mode: 'slow', delayMs: 60_000 }) });
    const pending = fetch(`${own.url}/model/${modelId}/converse`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: [{ text: 'companyName: Late' }] }] }),
    }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    await own.stop();
    await pending;
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
