/**
 * Error types shared by every Acme Payments module.
 *
 * Every error carries a stable, machine-readable `code` (REQ-PLT-002) and a `retryable`
 * flag that `withRetry` uses to decide whether another attempt is worthwhile.
 */

/** Base class of every error the service raises on purpose. */
export class PaymentError extends Error {
  readonly code: string;
  readonly retryable: boolean;

  constructor(code: string, message: string, retryable = false) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.retryable = retryable;
  }

  /** The JSON body returned to API clients; never includes stack traces. */
  toResponse(): { error: { code: string; message: string } } {
    return { error: { code: this.code, message: this.message } };
  }
}

/** The request was malformed; retrying the same request will never succeed. */
export class ValidationError extends PaymentError {
  constructor(message: string) {
    super('invalid_request', message);
  }
}

/** The debits and credits of a ledger entry do not sum to the same amount. */
export class UnbalancedEntryError extends PaymentError {
  constructor(debitMinor: number, creditMinor: number) {
    super('ledger_unbalanced', `debits ${debitMinor} != credits ${creditMinor}`);
  }
}

/** A refund asked for more money than is still refundable on the payment. */
export class RefundExceedsCaptureError extends PaymentError {
  constructor(paymentId: string, requestedMinor: number, refundableMinor: number) {
    super(
      'refund_exceeds_capture',
      `payment ${paymentId}: refund of ${requestedMinor} exceeds refundable ${refundableMinor}`,
    );
  }
}

/** A capture asked for more than the authorization allows. */
export class CaptureExceedsAuthorizationError extends PaymentError {
  constructor(paymentId: string) {
    super('capture_exceeds_authorization', `payment ${paymentId}: capture exceeds authorized amount`);
  }
}

/** The fraud scorer did not answer within its budget and the payment is too large to fail open. */
export class ScoringUnavailableError extends PaymentError {
  constructor() {
    super('risk_scoring_unavailable', 'fraud scoring timed out', true);
  }
}

/** The ledger store failed in a way that may succeed on a later attempt. */
export class TransientStoreError extends PaymentError {
  constructor(message: string) {
    super('store_unavailable', message, true);
  }
}

/** The service was asked to do work before `start()` or after `stop()`. */
export class ServiceStoppedError extends PaymentError {
  constructor(service: string) {
    super('service_stopped', `${service} is not running`);
  }
}
