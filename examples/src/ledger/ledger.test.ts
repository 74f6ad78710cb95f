// Pins the ledger's double-entry and refund rules (TST-LED-001, TST-LED-002, TST-LED-003).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Ledger } from './ledger';
import { InMemoryLedgerStore } from './memory-store';
import { ACQUIRER_RECEIVABLE, merchantPayable } from './types';
import { RefundExceedsCaptureError, UnbalancedEntryError } from '../shared/errors';

const eur = (amountMinor: number) => ({ amountMinor, currency: 'EUR' as const });

test('a balanced capture is stored and moves money to the merchant payable', async () => {
  const store = new InMemoryLedgerStore();
  const ledger = new Ledger(store);
  const entry = await ledger.capture('pay_1', 'm_42', eur(1250));
  const entries = await store.listByPayment('pay_1');
  assert.equal(entries.length, 1);
  assert.equal(entries[0].id, entry.id);
  assert.equal(ledger.balance(ACQUIRER_RECEIVABLE, entries), 1250);
  assert.equal(ledger.balance(merchantPayable('m_42'), entries), -1250);
});

test('an unbalanced entry is rejected before anything is written', async () => {
  const store = new InMemoryLedgerStore();
  const ledger = new Ledger(store);
  await assert.rejects(
    ledger.post('pay_2', 'm_42', 'capture', [
      { account: ACQUIRER_RECEIVABLE, direction: 'debit', amount: eur(1000) },
      { account: merchantPayable('m_42'), direction: 'credit', amount: eur(999) },
    ]),
    UnbalancedEntryError,
  );
  assert.deepEqual(await store.listByPayment('pay_2'), []);
});

test('refunds may be partial but never exceed the captured amount', async () => {
  const ledger = new Ledger(new InMemoryLedgerStore());
  await ledger.capture('pay_3', 'm_7', eur(5000));
  await ledger.refund('pay_3', eur(2000));
  await ledger.refund('pay_3', eur(3000));
  await assert.rejects(ledger.refund('pay_3', eur(1)), RefundExceedsCaptureError);
});
