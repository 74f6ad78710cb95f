/**
 * Refunds: partial or full, any number of times, never more than was captured (REQ-LED-003).
 * A refund is a compensating ledger entry (ADR-005), retried on transient store failures.
 */
import { Ledger } from '../ledger/ledger';
import type { Money } from '../ledger/types';
import { BaseService } from '../shared/base-service';
import { RefundExceedsCaptureError } from '../shared/errors';
import { withRetry } from '../shared/retry';

export interface RefundRequest {
  paymentId: string;
  amount: Money;
  reason: 'requested_by_customer' | 'duplicate' | 'fraudulent';
  idempotencyKey: string;
}

export interface RefundResult {
  paymentId: string;
  status: 'completed' | 'rejected';
  entryId?: string;
  rejectionCode?: string;
}

/** What the API layer needs from anything that can refund a payment. */
export interface RefundHandler {
  requestRefund(request: RefundRequest): Promise<RefundResult>;
}

export class RefundService extends BaseService implements RefundHandler {
  private readonly completed = new Map<string, RefundResult>();

  constructor(private readonly ledger: Ledger) {
    super('refunds');
  }

  async requestRefund(request: RefundRequest): Promise<RefundResult> {
    this.assertRunning();
    const previous = this.completed.get(request.idempotencyKey);
    if (previous !== undefined) {
      return previous;
    }
    let result: RefundResult;
    try {
      const entry = await withRetry(() => this.ledger.refund(request.paymentId, request.amount));
      result = { paymentId: request.paymentId, status: 'completed', entryId: entry.id };
      this.log('refund_completed', { paymentId: request.paymentId, amountMinor: request.amount.amountMinor });
    } catch (error) {
      if (!(error instanceof RefundExceedsCaptureError)) {
        throw error;
      }
      result = { paymentId: request.paymentId, status: 'rejected', rejectionCode: error.code };
      this.log('refund_rejected', { paymentId: request.paymentId, code: error.code });
    }
    this.completed.set(request.idempotencyKey, result);
    return result;
  }
}
