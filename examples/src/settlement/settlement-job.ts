/**
 * Nightly settlement: sums each merchant's payable for the window and checks that every
 * entry in the window is balanced (REQ-LED-004). Runs outside the request path (ADR-007).
 */
import type { LedgerEntry, LedgerStore } from '../ledger/types';
import { BaseService } from '../shared/base-service';
import { UnbalancedEntryError } from '../shared/errors';

export interface SettlementReport {
  windowStart: Date;
  windowEnd: Date;
  /** merchantId -> net payable in minor units (credits minus debits). */
  payables: Map<string, number>;
  entryCount: number;
}

export class SettlementJob extends BaseService {
  private timer: NodeJS.Timeout | undefined;
  private lastCutoff: Date;

  constructor(private readonly store: LedgerStore, private readonly intervalMs = 24 * 60 * 60 * 1000) {
    super('settlement');
    this.lastCutoff = new Date(0);
  }

  override start(): void {
    super.start();
    this.timer = setInterval(() => {
      this.runOnce(new Date()).catch((error: unknown) => this.log('settlement_failed', { error: String(error) }));
    }, this.intervalMs);
  }

  override stop(): void {
    clearInterval(this.timer);
    super.stop();
  }

  /** Settle every entry created since the previous cutoff. */
  async runOnce(now: Date): Promise<SettlementReport> {
    const entries = await this.store.listSince(this.lastCutoff);
    const payables = new Map<string, number>();
    for (const entry of entries) {
      this.checkBalanced(entry);
      const net = this.merchantNet(entry);
      if (net === 0) {
        continue;
      }
      payables.set(entry.merchantId, (payables.get(entry.merchantId) ?? 0) + net);
    }
    const report: SettlementReport = { windowStart: this.lastCutoff, windowEnd: now, payables, entryCount: entries.length };
    this.lastCutoff = now;
    this.log('settlement_completed', { entryCount: entries.length, merchants: payables.size });
    return report;
  }

  private merchantNet(entry: LedgerEntry): number {
    let net = 0;
    for (const posting of entry.postings) {
      if (!posting.account.startsWith(`merchant:${entry.merchantId}:`)) {
        continue;
      }
      net += posting.direction === 'credit' ? posting.amount.amountMinor : -posting.amount.amountMinor;
    }
    return net;
  }

  private checkBalanced(entry: LedgerEntry): void {
    let debit = 0;
    let credit = 0;
    for (const posting of entry.postings) {
      if (posting.direction === 'debit') debit += posting.amount.amountMinor;
      else credit += posting.amount.amountMinor;
    }
    if (debit !== credit) {
      this.log('ledger_imbalance_detected', { entryId: entry.id, debit, credit });
      throw new UnbalancedEntryError(debit, credit);
    }
  }
}
