/**
 * Ledger data model. Amounts are integers in the currency's minor unit (ADR-001):
 * 12.50 EUR is `{ amountMinor: 1250, currency: 'EUR' }`. Floating point never touches money.
 */

export type Currency = 'EUR' | 'GBP' | 'USD';

export interface Money {
  amountMinor: number;
  currency: Currency;
}

export type Direction = 'debit' | 'credit';

/** One side of a double-entry ledger line. */
export interface Posting {
  account: string;
  direction: Direction;
  amount: Money;
}

export type EntryKind = 'capture' | 'refund' | 'reversal';

/** An immutable, balanced group of postings (REQ-LED-001, REQ-LED-002). */
export interface LedgerEntry {
  id: string;
  paymentId: string;
  merchantId: string;
  kind: EntryKind;
  postings: Posting[];
  createdAt: Date;
  /** For refunds and reversals: the entry being compensated. */
  reverses?: string;
}

/** Append-only persistence for ledger entries. Implementations must never update or delete. */
export interface LedgerStore {
  append(entry: LedgerEntry): Promise<void>;
  listByPayment(paymentId: string): Promise<LedgerEntry[]>;
  listSince(since: Date): Promise<LedgerEntry[]>;
}

/** Account that holds money owed to us by the card acquirer until settlement. */
export const ACQUIRER_RECEIVABLE = 'acquirer:receivable';

/** Account that holds money we owe a merchant until settlement. */
export function merchantPayable(merchantId: string): string {
  return `merchant:${merchantId}:payable`;
}
