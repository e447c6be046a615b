/**
 * The ports only the drafting tools of issue 36 use (drafting.ts). The charge path's replays and slot are shared with
 * core/landing, so they live in core/ports.ts ("AI tools").
 */

/** A JSON Schema object (draft 2020-12 subset Bedrock takes as a tool's input schema). */
export type JsonSchema = Record<string, unknown>;

/**
 * The text model answering through one tool (Bedrock Converse tool use, the tool chosen by force): the model fills the
 * tool's input, which is the answer. `input` is whatever the model sent (unchecked: the caller checks it with zod);
 * `stopReason` is the model's own word ('tool_use' for a filled tool, 'max_tokens' when cut off). Throws
 * UpstreamError (with the provider's error as its cause) when the model does not answer.
 */
export interface ToolModel {
  call(input: {
    system: string;
    prompt: string;
    tool: { name: string; description: string; schema: JsonSchema };
    maxTokens: number;
  }): Promise<{ input: unknown; stopReason: string }>;
}
