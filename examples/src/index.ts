/**
 * Acme Payments service entrypoint: wires the components together, launches the settlement
 * job and dispatches API routes to the gateway and the refund service.
 */
import { AuthGateway, type AuthorizationRequest, type AuthorizationResult } from './gateway/auth-gateway';
import { IdempotencyStore } from './gateway/idempotency-store';
import { FraudScorer } from './fraud/scorer';
import { Ledger } from './ledger/ledger';
import { InMemoryLedgerStore } from './ledger/memory-store';
import type { LedgerStore, Money } from './ledger/types';
import { RefundService, type RefundRequest } from './refunds/refund-service';
import { SettlementJob } from './settlement/settlement-job';
import { PaymentError } from './shared/errors';

export interface App {
  gateway: AuthGateway;
  refunds: RefundService;
  settlement: SettlementJob;
}

/** Build the object graph. Production passes a durable store; tests use the in-memory one. */
export function createApp(store: LedgerStore = new InMemoryLedgerStore()): App {
  const ledger = new Ledger(store);
  const gateway = new AuthGateway(new FraudScorer(), ledger, new IdempotencyStore<AuthorizationResult>());
  const refunds = new RefundService(ledger);
  const settlement = new SettlementJob(store);
  return { gateway, refunds, settlement };
}

/** Route one API call. Errors become `{ status, body }` with the error's stable code. */
export async function handle(app: App, route: string, body: unknown): Promise<{ status: number; body: unknown }> {
  try {
    switch (route) {
      case 'POST /v1/authorizations':
        return { status: 201, body: await app.gateway.authorize(body as AuthorizationRequest) };
      case 'POST /v1/captures': {
        const { paymentId, amount } = body as { paymentId: string; amount: Money };
        return { status: 201, body: await app.gateway.capture(paymentId, amount) };
      }
      case 'POST /v1/refunds':
        return { status: 201, body: await app.refunds.requestRefund(body as RefundRequest) };
      default:
        return { status: 404, body: { error: { code: 'route_not_found', message: route } } };
    }
  } catch (error) {
    if (error instanceof PaymentError) {
      return { status: error.retryable ? 503 : 422, body: error.toResponse() };
    }
    throw error;
  }
}

/** Start the long-lived services and stop them cleanly on SIGTERM. */
export function main(): App {
  const app = createApp();
  app.refunds.start();
  app.settlement.start();
  process.once('SIGTERM', () => {
    app.settlement.stop();
    app.refunds.stop();
  });
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main();
}
