import { describe, expect, it } from 'vitest';
import { MemoryLedger } from '../src/index.js';
import { describeLedgerContract } from './ledgerContract.js';

describeLedgerContract('MemoryLedger', () => new MemoryLedger());

describe('MemoryLedger', () => {
  it('keeps separate ledgers apart', async () => {
    const first = new MemoryLedger();
    const second = new MemoryLedger();
    const { id } = await first.createAccount({ id: 'shared-id' });
    expect(await second.getAccount(id)).toBeUndefined();
  });

  it('returns copies, so a caller cannot change a stored entry', async () => {
    const ledger = new MemoryLedger();
    const { id } = await ledger.createAccount();
    const [entry] = await ledger.history(id);
    entry!.amount = 1;
    expect((await ledger.history(id))[0]!.amount).toBe(2000);
  });
});
