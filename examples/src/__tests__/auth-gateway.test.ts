// Pins idempotent replay, high-risk declines and capture limits of the gateway (TST-PAY-001, TST-PAY-002).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AuthGateway, type AuthorizationRequest, type AuthorizationResult } from '../gateway/auth-gateway';
import { IdempotencyStore } from '../gateway/idempotency-store';
import { FraudScorer, highAmountRule, type Rule } from '../fraud/scorer';
import { Ledger } from '../ledger/ledger';
import { InMemoryLedgerStore } from '../ledger/memory-store';
import { CaptureExceedsAuthorizationError } from '../shared/errors';

function gatewayWith(rules: readonly Rule[]): AuthGateway {
  return new AuthGateway(new FraudScorer(rules), new Ledger(new InMemoryLedgerStore()), new IdempotencyStore<AuthorizationResult>());
}

const request: AuthorizationRequest = {
  merchantId: 'm_42',
  idempotencyKey: 'order-1001',
  cardToken: 'tok_visa_4242',
  amount: { amountMinor: 1999, currency: 'EUR' },
  issuerCountry: 'DE',
  ipCountry: 'DE',
};

test('a retried authorization with the same idempotency key returns the original result', async () => {
  const gateway = gatewayWith([]);
  const first = await gateway.authorize(request);
  const second = await gateway.authorize(request);
  assert.equal(first.status, 'approved');
  assert.deepEqual(second, first);
});

test('a high-risk authorization is declined and cannot be captured', async () => {
  const alwaysRisky: Rule = () => ({ score: 0.95, reason: 'test_rule' });
  const gateway = gatewayWith([alwaysRisky, highAmountRule]);
  const result = await gateway.authorize({ ...request, idempotencyKey: 'order-1002' });
  assert.equal(result.status, 'declined');
  assert.deepEqual(result.reasons, ['test_rule']);
  await assert.rejects(gateway.capture(result.paymentId, request.amount));
});

test('a capture larger than the authorization is refused', async () => {
  const gateway = gatewayWith([]);
  const result = await gateway.authorize({ ...request, idempotencyKey: 'order-1003' });
  await assert.rejects(
    gateway.capture(result.paymentId, { amountMinor: 2000, currency: 'EUR' }),
    CaptureExceedsAuthorizationError,
  );
});
