/**
 * Risk scoring for card authorizations (REQ-FRD-001, REQ-FRD-002, REQ-FRD-003).
 *
 * A score is the maximum of independent rule scores in [0, 1]. The gateway declines at or
 * above its threshold. When scoring exceeds its time budget, small payments fail open
 * (score 0, `degraded: true`) and large ones fail closed (ADR-003).
 */
import { ScoringUnavailableError } from '../shared/errors';
import type { Money } from '../ledger/types';

export interface ScoringInput {
  merchantId: string;
  cardToken: string;
  amount: Money;
  /** ISO 3166 alpha-2 country of the issuing bank and of the buyer's IP address. */
  issuerCountry: string;
  ipCountry: string;
}

export interface RiskScore {
  value: number;
  reasons: string[];
  /** True when the score is a fail-open default rather than a real evaluation. */
  degraded: boolean;
}

/** One scoring rule: returns a score in [0, 1] and a reason when it fires. */
export type Rule = (input: ScoringInput, history: readonly ScoringInput[]) => { score: number; reason: string } | null;

export interface ScorerOptions {
  /** Time budget for one evaluation, in milliseconds. Default 150. */
  timeoutMs?: number;
  /** Payments strictly below this many minor units fail open on timeout. Default 5000. */
  failOpenBelowMinor?: number;
}

/** Many authorizations with the same card in the recent history. */
export const velocityRule: Rule = (input, history) => {
  const sameCard = history.filter((previous) => previous.cardToken === input.cardToken).length;
  return sameCard >= 5 ? { score: Math.min(1, sameCard / 10), reason: 'card_velocity' } : null;
};

/** The issuing country differs from where the buyer is. */
export const countryMismatchRule: Rule = (input) =>
  input.issuerCountry !== input.ipCountry ? { score: 0.4, reason: 'country_mismatch' } : null;

/** Unusually large single payment. */
export const highAmountRule: Rule = (input) =>
  input.amount.amountMinor >= 500_000 ? { score: 0.6, reason: 'high_amount' } : null;

export const DEFAULT_RULES: readonly Rule[] = [velocityRule, countryMismatchRule, highAmountRule];

export class FraudScorer {
  private readonly history: ScoringInput[] = [];
  private readonly timeoutMs: number;
  private readonly failOpenBelowMinor: number;

  constructor(private readonly rules: readonly Rule[] = DEFAULT_RULES, options: ScorerOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 150;
    this.failOpenBelowMinor = options.failOpenBelowMinor ?? 5000;
  }

  /** Score one authorization, enforcing the time budget. */
  async score(input: ScoringInput): Promise<RiskScore> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.timeoutMs);
    });
    try {
      const outcome = await Promise.race([this.evaluate(input), timeout]);
      if (outcome === 'timeout') {
        return this.onTimeout(input);
      }
      return outcome;
    } finally {
      clearTimeout(timer);
      this.remember(input);
    }
  }

  private async evaluate(input: ScoringInput): Promise<RiskScore> {
    const reasons: string[] = [];
    let value = 0;
    for (const rule of this.rules) {
      const hit = rule(input, this.history);
      if (hit === null) {
        continue;
      }
      reasons.push(hit.reason);
      value = Math.max(value, hit.score);
    }
    return { value, reasons, degraded: false };
  }

  private onTimeout(input: ScoringInput): RiskScore {
    if (input.amount.amountMinor < this.failOpenBelowMinor) {
      return { value: 0, reasons: ['scoring_timeout_fail_open'], degraded: true };
    }
    throw new ScoringUnavailableError();
  }

  private remember(input: ScoringInput): void {
    this.history.push(input);
    while (this.history.length > 1000) {
      this.history.shift();
    }
  }
}
