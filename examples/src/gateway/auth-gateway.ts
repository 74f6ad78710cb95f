/**
 * The card authorization gateway: validates a request, replays idempotent retries, asks the
 * fraud scorer for a risk score, and records captures in the ledger.
 *
 * Authorization only reserves the amount; money moves in the ledger at capture time.
 */
import { randomUUID } from 'node:crypto';
import { FraudScorer, type RiskScore } from '../fraud/scorer';
import { Ledger } from '../ledger/ledger';
import type { LedgerEntry, Money } from '../ledger/types';
import { CaptureExceedsAuthorizationError, ValidationError } from '../shared/errors';
import { withRetry } from '../shared/retry';
import { IdempotencyStore, fingerprint } from './idempotency-store';

export interface AuthorizationRequest {
  merchantId: string;
  idempotencyKey: string;
  cardToken: string;
  amount: Money;
  issuerCountry: string;
  ipCountry: string;
}

export interface AuthorizationResult {
  paymentId: string;
  status: 'approved' | 'declined';
  riskScore: number;
  reasons: string[];
}

export interface GatewayOptions {
  /** Scores at or above this value are declined (REQ-FRD-002). Default 0.8. */
  declineThreshold?: number;
}

interface Authorization {
  merchantId: string;
  amount: Money;
  captured: boolean;
}

export class AuthGateway {
  private readonly authorizations = new Map<string, Authorization>();
  private readonly declineThreshold: number;

  constructor(
    private readonly scorer: FraudScorer,
    private readonly ledger: Ledger,
    private readonly idempotency: IdempotencyStore<AuthorizationResult>,
    options: GatewayOptions = {},
  ) {
    this.declineThreshold = options.declineThreshold ?? 0.8;
  }

  /** Authorize a card payment; safe to retry with the same idempotency key. */
  async authorize(request: AuthorizationRequest): Promise<AuthorizationResult> {
    this.validate(request);
    const requestFingerprint = fingerprint({ ...request });
    const replay = this.idempotency.get(request.merchantId, request.idempotencyKey, requestFingerprint);
    if (replay !== undefined) {
      return replay;
    }

    const risk: RiskScore = await this.scorer.score(request);
    const paymentId = randomUUID();
    let result: AuthorizationResult;
    if (risk.value >= this.declineThreshold) {
      result = { paymentId, status: 'declined', riskScore: risk.value, reasons: risk.reasons };
    } else {
      this.authorizations.set(paymentId, { merchantId: request.merchantId, amount: request.amount, captured: false });
      result = { paymentId, status: 'approved', riskScore: risk.value, reasons: risk.reasons };
    }
    this.idempotency.put(request.merchantId, request.idempotencyKey, requestFingerprint, result);
    return result;
  }

  /** Capture an approved authorization, fully or partially, exactly once (REQ-PAY-003). */
  async capture(paymentId: string, amount: Money): Promise<LedgerEntry> {
    const authorization = this.authorizations.get(paymentId);
    if (authorization === undefined) {
      throw new ValidationError(`unknown or declined payment ${paymentId}`);
    }
    if (authorization.captured || amount.amountMinor > authorization.amount.amountMinor || amount.currency !== authorization.amount.currency) {
      throw new CaptureExceedsAuthorizationError(paymentId);
    }
    const entry = await withRetry(() => this.ledger.capture(paymentId, authorization.merchantId, amount));
    authorization.captured = true;
    return entry;
  }

  private validate(request: AuthorizationRequest): void {
    if (request.idempotencyKey.length === 0 || request.idempotencyKey.length > 255) {
      throw new ValidationError('Idempotency-Key must be 1-255 characters');
    }
    if (!Number.isInteger(request.amount.amountMinor) || request.amount.amountMinor <= 0) {
      throw new ValidationError('amount must be a positive integer number of minor units');
    }
  }
}
