import { describe, expect, it } from 'vitest';
import { isTransient } from '#middleware/transient.ts';

const aws = (name: string, fault: 'client' | 'server', extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(name), { name, $fault: fault, $metadata: { httpStatusCode: fault === 'server' ? 500 : 400 }, ...extra });

describe('a transient dependency failure', () => {
  it('is a timeout, a cut or refused connection, a throttle, or a server fault of an AWS service', () => {
    for (const error of [
      Object.assign(new Error('t'), { name: 'TimeoutError' }),
      Object.assign(new Error('a'), { name: 'AbortError' }),
      Object.assign(new Error('c'), { code: 'ECONNREFUSED' }),
      aws('ThrottlingException', 'client'),
      aws('ProvisionedThroughputExceededException', 'client'),
      aws('InternalServerError', 'server'),
      aws('SomethingNew', 'server'),
      aws('SomethingRetryable', 'client', { $retryable: { throttling: true } }),
      new Error('wrapped', { cause: Object.assign(new Error('r'), { code: 'ECONNRESET' }) }),
    ]) {
      expect(isTransient(error), String((error as Error).name)).toBe(true);
    }
  });

  it('is a transaction cancelled by a conflict or a throttle, never by a condition', () => {
    const cancelled = (...codes: string[]) => aws('TransactionCanceledException', 'client', { CancellationReasons: codes.map((Code) => ({ Code })) });
    expect(isTransient(cancelled('None', 'TransactionConflict'))).toBe(true);
    expect(isTransient(cancelled('ThrottlingError'))).toBe(true);
    expect(isTransient(cancelled('ConditionalCheckFailed', 'TransactionConflict'))).toBe(false);
    expect(isTransient(cancelled('None'))).toBe(false);
  });

  it('is not a request the service refused, nor a bug of ours', () => {
    for (const error of [aws('ValidationException', 'client'), aws('ConditionalCheckFailedException', 'client'), new TypeError('x'), null, 'text', 42]) {
      expect(isTransient(error)).toBe(false);
    }
  });
});
