import { BedrockRuntimeClient, ConverseCommand, type ConverseCommandInput } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractFields, renderLandingPage, startBedrockStandIn, type BedrockStandIn } from '#lib/local/bedrock/stand-in.ts';

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

const failNext = async (body: unknown) => {
  const res = await fetch(`${standIn.url}/_stand-in/fail-next`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
};

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
    const res = await fetch(`${standIn.url}/_stand-in/calls`);
    const { calls } = (await res.json()) as { calls: { modelId: string; fields: { companyName: string; businessType: string } }[] };
    expect(calls.at(-1)).toMatchObject({ modelId, fields: { companyName: 'Recorded Co', businessType: 'finance' } });
  });
});
