/**
 * Bounded retries with exponential backoff and full jitter (ADR-004, REQ-PLT-001).
 */
import { PaymentError } from './errors';

/** Tuning for `withRetry`. All durations are milliseconds. */
export interface RetryOptions {
  /** Total attempts including the first one. Default 4. */
  maxAttempts?: number;
  /** Backoff base; attempt n waits up to baseDelayMs * 2^(n-1). Default 50. */
  baseDelayMs?: number;
  /** Upper bound of a single wait. Default 1000. */
  maxDelayMs?: number;
  /** Called after every attempt, successful or not, for metrics. */
  onAttempt?: (attempt: number, error: unknown) => void;
  /** Injectable for tests; defaults to Math.random. */
  random?: () => number;
}

/** Whether an error is worth another attempt: only errors that say so, plus unknown I/O errors. */
export function isRetryable(error: unknown): boolean {
  if (error instanceof PaymentError) {
    return error.retryable;
  }
  return error instanceof Error && 'errno' in error;
}

/** Resolve after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Run `operation` until it succeeds, fails with a non-retryable error, or runs out of attempts.
 * The last error is rethrown unchanged so callers can still match on its `code`.
 */
export async function withRetry<T>(operation: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 4;
  const baseDelayMs = options.baseDelayMs ?? 50;
  const maxDelayMs = options.maxDelayMs ?? 1000;
  const random = options.random ?? Math.random;
  let lastError: unknown = new Error('withRetry: no attempt was made');

  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    let failure: unknown = null;
    try {
      return await operation();
    } catch (error) {
      failure = error;
      lastError = error;
      if (!isRetryable(error)) {
        throw error;
      }
      if (attempt === maxAttempts) {
        break;
      }
      const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1));
      const delay = Math.floor(random() * ceiling);
      if (delay === 0) {
        continue;
      }
      await sleep(delay);
    } finally {
      options.onAttempt?.(attempt, failure);
    }
  }
  throw lastError;
}
