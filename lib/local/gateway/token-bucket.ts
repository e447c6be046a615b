/**
 * API Gateway's throttling model: a bucket of `burst` tokens refilled at `rate` per second; a request
 * takes one token or is refused (429).
 */
export const tokenBucket = (limits: { rate: number; burst: number }, now: () => number = Date.now) => {
  let tokens = limits.burst;
  let last = now();
  return (): boolean => {
    const t = now();
    tokens = Math.min(limits.burst, tokens + ((t - last) / 1000) * limits.rate);
    last = t;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
};
