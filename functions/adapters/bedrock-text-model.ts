import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { awsClientOptions, callDeadline, clientPolicies } from '#adapters/client-policy.ts';
import { traced } from '#adapters/tracer.ts';
import { config, required } from '#functions/config.ts';
import { UpstreamError } from '#core/errors.ts';
import type { ToolModel } from '#core/ai/ports.ts';
import type { TextModel } from '#core/landing/ports.ts';
import type { DocumentType } from '@smithy/types';

let client: BedrockRuntimeClient | undefined;

/**
 * The Bedrock client, made once (adapters/client-policy.ts): one attempt may take 25 s and the whole call (a retry of
 * a throttled or failed call included) gives up at 26 s, so the function (30 s, like API Gateway's own limit) always
 * has the time left to refund the credits and answer 502 itself rather than be cut off. HTTP/1.1 on purpose: Converse
 * needs no HTTP/2, and the local stand-in speaks only HTTP/1.1.
 */
export const bedrockClient = (): BedrockRuntimeClient => {
  if (!client) {
    const { AWS_REGION, BEDROCK_ENDPOINT } = config();
    client = traced(
      new BedrockRuntimeClient({
        region: AWS_REGION,
        ...awsClientOptions(clientPolicies.bedrock),
        ...(BEDROCK_ENDPOINT ? { endpoint: BEDROCK_ENDPOINT } : {}),
      }),
    );
  }
  return client;
};

/**
 * One Converse call: the system prompt, the user's prompt as the only message, and the caller's settings; a failure of
 * any kind is the model not answering (UpstreamError: the caller refunds and answers 502).
 */
const converse = async (
  { system, prompt, maxTokens, temperature }: { system: string; prompt: string; maxTokens: number; temperature: number },
  extra: Pick<ConstructorParameters<typeof ConverseCommand>[0], 'toolConfig'> = {},
) => {
  try {
    return await bedrockClient().send(
      new ConverseCommand({
        modelId: required('BEDROCK_MODEL_ID'),
        system: [{ text: system }],
        messages: [{ role: 'user', content: [{ text: prompt }] }],
        inferenceConfig: { maxTokens, temperature },
        ...extra,
      }),
      callDeadline(clientPolicies.bedrock),
    );
  } catch (error) {
    throw Object.assign(new UpstreamError('The text model did not answer.'), { cause: error });
  }
};

/** Bedrock Runtime's Converse API as the TextModel port. The model id is configuration (deploy settings). */
export const bedrockTextModel = (): TextModel => ({
  async generate({ system, prompt, maxTokens }) {
    const answer = await converse({ system, prompt, maxTokens, temperature: 0.7 });
    const text = (answer.output?.message?.content ?? []).map((block) => block.text ?? '').join('');
    return { text, stopReason: answer.stopReason ?? 'unknown' };
  },
});

/**
 * Bedrock Converse with one tool, chosen by force (`toolChoice: {tool}`: Anthropic's Claude 3+ and Mistral Large take
 * it): the model's answer is the tool's input, a JSON document the caller checks with zod. The tool's schema keeps the
 * answer in shape; the check is what keeps it honest. Temperature lower than the landing page's: drafts follow rules.
 */
export const bedrockToolModel = (): ToolModel => ({
  async call({ system, prompt, tool, maxTokens }) {
    const answer = await converse(
      { system, prompt, maxTokens, temperature: 0.4 },
      {
        toolConfig: {
          tools: [{ toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: tool.schema as DocumentType } } }],
          toolChoice: { tool: { name: tool.name } },
        },
      },
    );
    const used = (answer.output?.message?.content ?? []).find((block) => block.toolUse?.name === tool.name)?.toolUse;
    return { input: used?.input, stopReason: answer.stopReason ?? 'unknown' };
  },
});
