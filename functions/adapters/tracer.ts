import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME } from '#middleware/logger.ts';

/**
 * Powertools Tracer: every AWS SDK client is wrapped once, where it is created, so each call is an X-Ray subsegment
 * under the function's trace (active tracing is on for every function). Outside Lambda (no AWS_EXECUTION_ENV: the
 * local cloud and tests) Tracer switches itself off and the client is returned as it is.
 */
export const tracer = new Tracer({ serviceName: SERVICE_NAME });

export const traced = <T>(client: T): T => tracer.captureAWSv3Client(client);
