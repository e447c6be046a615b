import { config } from '../config.ts';

/** The one logger: one JSON object per line on stdout (CloudWatch in the cloud, the terminal locally). */
type Level = 'debug' | 'info' | 'warn' | 'error';
const rank: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 };

const write = (level: Level, msg: string, fields: Record<string, unknown> = {}): void => {
  if (rank[level] < rank[config().LOG_LEVEL]) return;
  process.stdout.write(`${JSON.stringify({ level, time: new Date().toISOString(), msg, ...fields })}\n`);
};

export const logger = {
  debug: (msg: string, fields?: Record<string, unknown>) => write('debug', msg, fields),
  info: (msg: string, fields?: Record<string, unknown>) => write('info', msg, fields),
  warn: (msg: string, fields?: Record<string, unknown>) => write('warn', msg, fields),
  error: (msg: string, fields?: Record<string, unknown>) => write('error', msg, fields),
};

/** What of an unexpected error may be logged: never request bodies or secrets, just what it is and where. */
export const describeError = (error: unknown): Record<string, unknown> =>
  error instanceof Error
    ? { errorName: error.name, errorMessage: error.message, stack: error.stack?.split('\n').slice(0, 8).join('\n') }
    : { errorName: typeof error };
