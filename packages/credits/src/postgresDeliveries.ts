import { randomInt } from 'node:crypto';
import type pg from 'pg';
import { checkoutClient } from './postgresMigrations.js';

/** First key of the advisory locks that stand for a live ledger (the second is its lease key). */
const LEASE_NAMESPACE = 0x63616431;

/**
 * What a `PostgresLedger` holds while it has charges whose answer is being delivered: a session advisory lock
 * (LEASE_NAMESPACE, key) on a connection of its own. PostgreSQL drops the lock when that session ends (the process
 * died, its machine went away), and that is how any other ledger on the schema learns that the deliveries pending
 * under this key will never be settled by their owner.
 */
export class DeliveryLease {
  #lost = false;

  private constructor(readonly key: number, readonly client: pg.PoolClient) {
    // A lost session is a lost lease: the next delivery takes a new one.
    client.on('error', () => (this.#lost = true));
  }

  static async take(pool: pg.Pool): Promise<DeliveryLease> {
    const client = await pool.connect();
    try {
      for (;;) {
        const key = randomInt(-(2 ** 31), 2 ** 31);
        const { rows: [row] } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS held',
          [LEASE_NAMESPACE, key]);
        if (row?.held) return new DeliveryLease(key, client);
      }
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  }

  get lost(): boolean {
    return this.#lost;
  }

  /** Ends the session, and with it the lock. */
  release(): void {
    this.client.release(true);
  }
}

/** The statements of the deliveries table, `pending_deliveries` of the ledger's schema. */
export interface DeliveryStatements {
  pendingHolders: string;
  pendingOf: string;
  deleteDelivery: string;
}

/**
 * Refunds the charges pending under every lease but `ownKey` whose lock is free (its ledger is gone), and clears
 * them; resolves with how many. A lease found free is locked meanwhile, so two ledgers never recover one at once,
 * and `refund` credits a charge back at most once even so.
 */
export async function recoverDeliveries(pool: pg.Pool, sql: DeliveryStatements, refund: (chargeId: string) => Promise<number>,
  ownKey: number | undefined): Promise<number> {
  const { rows: holders } = await pool.query<{ holder: number }>(sql.pendingHolders);
  let refunded = 0;
  for (const { holder } of holders) {
    if (holder === ownKey) continue;
    const { client, release } = await checkoutClient(pool);
    try {
      const { rows: [row] } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS held',
        [LEASE_NAMESPACE, holder]);
      if (!row?.held) continue;
      try {
        const { rows: pending } = await client.query<{ charge_id: string }>(sql.pendingOf, [holder]);
        for (const { charge_id: chargeId } of pending) {
          await refund(chargeId);
          await client.query(sql.deleteDelivery, [chargeId]);
          refunded++;
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock($1::int, $2::int)', [LEASE_NAMESPACE, holder]);
      }
    } finally {
      release();
    }
  }
  return refunded;
}
