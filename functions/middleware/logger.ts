import { Logger } from '@aws-lambda-powertools/logger';
import { config, type Config } from '#functions/config.ts';

/** The service name every log line, metric and trace carries. */
export const SERVICE_NAME = 'course-platform';

/** LOG_LEVEL as Powertools spells it (upper case; `silent` is its SILENT). */
const levelName = (level: Config['LOG_LEVEL']) => level.toUpperCase() as Uppercase<Config['LOG_LEVEL']>;

/**
 * The one logger: Powertools Logger, one JSON object per line (CloudWatch in the cloud, the terminal locally).
 * Per-request fields (request id, route) are passed on each line through `scopedLog`, not appended to the logger:
 * the local cloud runs many invocations at once in one process, where appended keys would leak between them.
 */
export const logger = new Logger({ serviceName: SERVICE_NAME, logLevel: levelName(config().LOG_LEVEL) });

let levelOf: Config | undefined;

/** Follows LOG_LEVEL when the environment changes under a running process (the local cloud, tests, the bench). */
export const syncLogLevel = (): void => {
  const current = config();
  if (current === levelOf) return;
  levelOf = current;
  logger.setLogLevel(levelName(current.LOG_LEVEL));
};

/**
 * What of an error may be logged: what it is, where, and its cause (a Stripe 4xx behind an UPSTREAM_FAILED, say),
 * never request bodies, headers or secrets: only these named fields are copied.
 */
export const describeError = (error: unknown): Record<string, unknown> => {
  if (!(error instanceof Error)) return { errorName: typeof error };
  const e = error as Error & { code?: unknown; type?: unknown; statusCode?: unknown; requestId?: unknown };
  return {
    errorName: e.name,
    errorMessage: e.message,
    ...(typeof e.type === 'string' ? { errorType: e.type } : {}),
    ...(typeof e.code === 'string' ? { errorCode: e.code } : {}),
    ...(typeof e.statusCode === 'number' ? { errorStatus: e.statusCode } : {}),
    ...(typeof e.requestId === 'string' ? { upstreamRequestId: e.requestId } : {}),
    stack: e.stack?.split('\n').slice(0, 8).join('\n'),
    ...(e.cause === undefined ? {} : { cause: describeError(e.cause) }),
  };
};


export interface ScopedLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Lines that all carry `keys` (an invocation's request id and route, a trigger's name and source). */
export const scopedLog = (keys: Record<string, unknown>): ScopedLog => {
  const line = (level: keyof ScopedLog) => (message: string, fields: Record<string, unknown> = {}) => {
    syncLogLevel();
    logger[level](message, { ...keys, ...fields });
  };
  return { info: line('info'), warn: line('warn'), error: line('error') };
};
