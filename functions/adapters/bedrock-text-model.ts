import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { traced } from '#adapters/tracer.ts';
import { config, required } from '#functions/config.ts';
import { UpstreamError } from '#core/errors.ts';
import type { TextModel } from '#core/ports.ts';

/**
 * One attempt may take 25 s; the whole call (a retry included) gives up at 26 s, so the function (30 s, like API
 * Gateway's own limit) always has the time left to refund the credits and answer 502 itself rather than be cut off.
 */
const REQUEST_TIMEOUT_MS = 25_000;
const CONNECTION_TIMEOUT_MS = 3_000;
const CALL_DEADLINE_MS = 26_000;

let client: BedrockRuntimeClient | undefined;

/**
 * HTTP/1.1 on purpose: Converse needs no HTTP/2, and the local stand-in speaks only HTTP/1.1. `throwOnRequestTimeout`
 * makes the request timeout an error (without it smithy only logs a warning). Two attempts: one retry of a throttled
 * or failed call.
 */
const bedrock = (): BedrockRuntimeClient => {
  if (!client) {
    const { AWS_REGION, BEDROCK_ENDPOINT } = config();
    client = traced(
      new BedrockRuntimeClient({
        region: AWS_REGION,
        maxAttempts: 2,
        requestHandler: new NodeHttpHandler({
          connectionTimeout: CONNECTION_TIMEOUT_MS,
          requestTimeout: REQUEST_TIMEOUT_MS,
          throwOnRequestTimeout: true,
        }),
        ...(BEDROCK_ENDPOINT ? { endpoint: BEDROCK_ENDPOINT } : {}),
      }),
    );
  }
  return client;
};

/** Bedrock Runtime's Converse API as the TextModel port. The model id is configuration (deploy settings). */
export const bedrockTextModel = (): TextModel => ({
  async generate({ system, prompt, maxTokens }) {
    const modelId = required('BEDROCK_MODEL_ID');
    try {
      const answer = await bedrock().send(
        new ConverseCommand({
          modelId,
          system: [{ text: system }],
          messages: [{ role: 'user', content: [{ text: prompt }] }],
          inferenceConfig: { maxTokens, temperature: 0.7 },
        }),
        { abortSignal: AbortSignal.timeout(CALL_DEADLINE_MS) },
      );
      const text = (answer.output?.message?.content ?? []).map((block) => block.text ?? '').join('');
      return { text, stopReason: answer.stopReason ?? 'unknown' };
    } catch (error) {
      throw Object.assign(new UpstreamError('The text model did not answer.'), { cause: error });
    }
  },
});
