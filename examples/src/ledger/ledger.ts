/**
 * The double-entry ledger: the single place where money movement is recorded.
 *
 * A capture debits the acquirer receivable and credits the merchant payable. A refund is a
 * new entry with the opposite postings (ADR-005); nothing is ever edited in place.
 */
import { randomUUID } from 'node:crypto';
import {
  RefundExceedsCaptureError,
  TransientStoreError,
  UnbalancedEntryError,
  ValidationError,
} from '../shared/errors';
import {
  ACQUIRER_RECEIVABLE,
  merchantPayable,
  type EntryKind,
  type LedgerEntry,
  type LedgerStore,
  type Money,
  type Posting,
} from './types';

export class Ledger {
  constructor(private readonly store: LedgerStore) {}

  /**
   * Validate and append one entry. Rejects empty, zero, negative, mixed-currency and
   * unbalanced postings before anything is written.
   */
  async post(paymentId: string, merchantId: string, kind: EntryKind, postings: Posting[], reverses?: string): Promise<LedgerEntry> {
    if (postings.length < 2) {
      throw new ValidationError('an entry needs at least one debit and one credit');
    }
    this.assertBalanced(postings);
    const entry: LedgerEntry = {
      id: randomUUID(),
      paymentId,
      merchantId,
      kind,
      postings,
      createdAt: new Date(),
      reverses,
    };
    try {
      await this.store.append(entry);
    } catch (error) {
      throw new TransientStoreError(`append failed for payment ${paymentId}: ${String(error)}`);
    }
    return entry;
  }

  /** Record a capture of `amount` for a payment. */
  async capture(paymentId: string, merchantId: string, amount: Money): Promise<LedgerEntry> {
    return this.post(paymentId, merchantId, 'capture', [
      { account: ACQUIRER_RECEIVABLE, direction: 'debit', amount },
      { account: merchantPayable(merchantId), direction: 'credit', amount },
    ]);
  }

  /**
   * Refund part or all of a captured payment. Throws `RefundExceedsCaptureError` when the
   * amount is larger than what was captured minus what was already refunded (REQ-LED-003).
   */
  async refund(paymentId: string, amount: Money): Promise<LedgerEntry> {
    const entries = await this.store.listByPayment(paymentId);
    const capture = entries.find((entry) => entry.kind === 'capture');
    if (capture === undefined) {
      throw new ValidationError(`payment ${paymentId} has no capture to refund`);
    }
    const refundable = this.refundableAmount(entries);
    if (amount.amountMinor > refundable) {
      throw new RefundExceedsCaptureError(paymentId, amount.amountMinor, refundable);
    }
    return this.post(
      paymentId,
      capture.merchantId,
      'refund',
      [
        { account: merchantPayable(capture.merchantId), direction: 'debit', amount },
        { account: ACQUIRER_RECEIVABLE, direction: 'credit', amount },
      ],
      capture.id,
    );
  }

  /** Captured minus refunded, in minor units, over the entries of one payment. */
  refundableAmount(entries: LedgerEntry[]): number {
    let captured = 0;
    let refunded = 0;
    for (const entry of entries) {
      const credited = entry.postings
        .filter((posting) => posting.direction === 'credit')
        .reduce((sum, posting) => sum + posting.amount.amountMinor, 0);
      if (entry.kind === 'capture') {
        captured += credited;
      } else if (entry.kind === 'refund') {
        refunded += credited;
      }
    }
    return captured - refunded;
  }

  /** Signed balance of one account (debits positive) over the given entries. */
  balance(account: string, entries: LedgerEntry[]): number {
    let total = 0;
    for (const entry of entries) {
      for (const posting of entry.postings) {
        if (posting.account !== account) {
          continue;
        }
        total += posting.direction === 'debit' ? posting.amount.amountMinor : -posting.amount.amountMinor;
      }
    }
    return total;
  }

  private assertBalanced(postings: Posting[]): void {
    const currency = postings[0].amount.currency;
    let debit = 0;
    let credit = 0;
    for (const posting of postings) {
      if (!Number.isInteger(posting.amount.amountMinor) || posting.amount.amountMinor <= 0) {
        throw new ValidationError(`posting to ${posting.account} must be a positive integer amount`);
      }
      if (posting.amount.currency !== currency) {
        throw new ValidationError('an entry must use a single currency');
      }
      if (posting.direction === 'debit') {
        debit += posting.amount.amountMinor;
      } else {
        credit += posting.amount.amountMinor;
      }
    }
    if (debit !== credit) {
      throw new UnbalancedEntryError(debit, credit);
    }
  }
}
