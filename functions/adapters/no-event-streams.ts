/**
 * `@smithy/core/event-streams` as these functions use it: not at all. No function calls an operation whose input or
 * output is an event stream (S3 SelectObjectContent, Bedrock's Converse/Invoke streams, Lambda's response streams),
 * yet the S3, Lambda and Bedrock clients import the codecs to build their configuration, and every client's protocol
 * can import the serde: ~10-15 KB minified in every bundle. The Lambda bundles alias the module to this one
 * (lib/constructs/bundling.ts). A client still resolves its configuration (`resolveEventStreamSerdeConfig` is the
 * real one); any use of a stream throws, naming this file. Not used outside the bundles: tsx and vitest load the real
 * module. docs/decisions/0027-functions-bundled-by-the-project.md.
 */
const unbundled = (): never => {
  throw new Error('Event streams are not bundled into these functions (functions/adapters/no-event-streams.ts)');
};

interface SerdeInput {
  eventStreamSerdeProvider: (input: SerdeInput) => unknown;
}

export const resolveEventStreamSerdeConfig = <T extends SerdeInput>(input: T): T & { eventStreamMarshaller: unknown } =>
  Object.assign(input, { eventStreamMarshaller: input.eventStreamSerdeProvider(input) });

export const eventStreamSerdeProvider = (): { serialize: () => never; deserialize: () => never } => ({
  serialize: unbundled,
  deserialize: unbundled,
});
export const universalEventStreamSerdeProvider = eventStreamSerdeProvider;
export const readableStreamToIterable = unbundled;
export const iterableToReadableStream = unbundled;
export const getChunkedStream = unbundled;
export const getUnmarshalledStream = unbundled;
export const getMessageUnmarshaller = unbundled;

/** What a protocol makes the moment an operation reads or writes a stream: the clear error, then and only then. */
export class EventStreamSerde {
  constructor(..._args: unknown[]) {
    unbundled();
  }
}

/** The codecs and marshallers: a client may construct them with its configuration; none of their methods exist. */
class Unbundled {
  constructor(..._args: unknown[]) {}
}
export class EventStreamCodec extends Unbundled {}
export class HeaderMarshaller extends Unbundled {}
export class Int64 extends Unbundled {}
export class MessageDecoderStream extends Unbundled {}
export class MessageEncoderStream extends Unbundled {}
export class SmithyMessageDecoderStream extends Unbundled {}
export class SmithyMessageEncoderStream extends Unbundled {}
export class EventStreamMarshaller extends Unbundled {}
export class UniversalEventStreamMarshaller extends Unbundled {}
