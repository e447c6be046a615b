import { inLambda } from '#functions/config.ts';
import { SERVICE_NAME } from '#middleware/logger.ts';

/**
 * Powertools Tracer: every AWS SDK client is wrapped once, where it is created, so each call is an X-Ray subsegment
 * under the function's trace (active tracing is on for every function). Tracer traces only in Lambda (its
 * AWS_EXECUTION_ENV), and only there is it loaded: X-Ray's SDK enables an async hook as it loads (cls-hooked, its
 * context), which every promise of the process then pays for, traced or not. Outside Lambda (the local cloud, the
 * tests, the bench's gateway) clients are returned as they are and the hook is never enabled.
 * docs/decisions/0027-functions-bundled-by-the-project.md.
 */
const tracer = inLambda()
  ? new (await import('@aws-lambda-powertools/tracer')).Tracer({ serviceName: SERVICE_NAME })
  : undefined;

export const traced = <T>(client: T): T => (tracer ? tracer.captureAWSv3Client(client) : client);
