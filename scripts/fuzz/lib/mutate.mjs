// Mutated raw inputs: bit flips, truncations, concatenations, splices and overwrites of seed files (images,
// PDF, DOCX, DOC, HTML, text), and random bytes.

/** One mutation of a byte string; positions are taken modulo its length. */
export function mutationArbitrary(fc) {
  return fc.oneof(
    fc.record({ op: fc.constant('flip'), at: fc.array(fc.nat(), { minLength: 1, maxLength: 16 }), bit: fc.nat(7) }),
    fc.record({ op: fc.constant('truncate'), at: fc.nat() }),
    fc.record({ op: fc.constant('concat'), other: fc.nat() }),
    fc.record({ op: fc.constant('splice'), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 64 }) }),
    fc.record({ op: fc.constant('overwrite'), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }) }),
    fc.record({ op: fc.constant('duplicate'), at: fc.nat(), length: fc.nat(4096) }),
  );
}

/** Applies `mutations` in order to `seed`; `pool` is where `concat` takes its other file from. */
export function applyMutations(seed, mutations, pool) {
  let bytes = Buffer.from(seed);
  for (const m of mutations) {
    const at = bytes.length === 0 ? 0 : (m.at ?? 0) % bytes.length;
    switch (m.op) {
      case 'flip': {
        if (bytes.length === 0) break;
        bytes = Buffer.from(bytes);
        for (const p of m.at) bytes[p % bytes.length] ^= 1 << m.bit;
        break;
      }
      case 'truncate':
        bytes = bytes.subarray(0, at);
        break;
      case 'concat':
        bytes = Buffer.concat([bytes, pool[m.other % pool.length]]);
        break;
      case 'splice':
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(m.bytes), bytes.subarray(at)]);
        break;
      case 'overwrite':
        bytes = Buffer.from(bytes);
        Buffer.from(m.bytes).copy(bytes, at);
        break;
      case 'duplicate':
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at, at + m.length), bytes.subarray(at)]);
        break;
      default:
        throw new Error(`unknown mutation ${m.op}`);
    }
  }
  return bytes;
}

/**
 * Bytes made from the seed files of `pool`: a seed as it is, a seed with up to three mutations, or random bytes.
 * Each value is `{bytes, from}`, `from` naming the seed and the mutations (for the report of a failing case).
 */
export function mutatedBytesArbitrary(fc, pool) {
  const files = pool.map((seed) => seed.bytes);
  return fc.oneof(
    { weight: 2, arbitrary: fc.nat(pool.length - 1).map((i) => ({ bytes: pool[i].bytes, from: pool[i].name })) },
    {
      weight: 8,
      arbitrary: fc.tuple(fc.nat(pool.length - 1), fc.array(mutationArbitrary(fc), { minLength: 1, maxLength: 3 })).map(([i, mutations]) => ({
        bytes: applyMutations(pool[i].bytes, mutations, files),
        from: `${pool[i].name} ${mutations.map((m) => m.op).join('+')}`,
      })),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 4096 }).map((a) => ({ bytes: Buffer.from(a), from: 'random bytes' })) },
  );
}
