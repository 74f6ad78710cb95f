/**
 * An in-memory `LedgerStore` for tests and local development only (ADR-006).
 */
import { TransientStoreError } from '../shared/errors';
import type { LedgerEntry, LedgerStore } from './types';

export class InMemoryLedgerStore implements LedgerStore {
  private readonly entries: LedgerEntry[] = [];
  private failuresToInject = 0;

  /** Make the next `count` appends fail with a retryable error, to exercise retries. */
  failNextAppends(count: number): void {
    this.failuresToInject = count;
  }

  async append(entry: LedgerEntry): Promise<void> {
    if (this.failuresToInject > 0) {
      this.failuresToInject -= 1;
      throw new TransientStoreError('injected append failure');
    }
    this.entries.push(Object.freeze({ ...entry, postings: [...entry.postings] }));
  }

  async listByPayment(paymentId: string): Promise<LedgerEntry[]> {
    return this.entries.filter((entry) => entry.paymentId === paymentId);
  }

  async listSince(since: Date): Promise<LedgerEntry[]> {
    return this.entries.filter((entry) => entry.createdAt.getTime() >= since.getTime());
  }
}
