/**
 * Large buffers whose memory is used again once their holder has let go of them: a fresh 48 MB ELA map or 36 MB of
 * decoded pixels (12 MP) costs a page fault per 4 KiB on its first write, which on the benchmark machine took about as
 * long as the work written into it (issue 35). Each buffer handed out is its own SharedArrayBuffer object over memory
 * this module keeps: when the garbage collector has taken that object (no view, no `.buffer` of this thread refers to
 * it any more), a FinalizationRegistry puts the memory back on a short spare list for the next buffer. Those objects
 * are taken by full collections only, which V8 starts from the memory it is told of (`reportToCollector`).
 *
 * The memory is shared: a thread it is posted to (`postMessage`, a pool task) reads the same bytes, not a copy. Keep
 * the buffer (or a view of it) referenced on this thread until such a thread is done with it, or post a copy; once no
 * object of this thread holds it, a later buffer may be written there.
 */

/** Spare buffers kept (the largest): the pixels and the ELA map of two images, about 170 MB at 12 MP. */
const MAX_SPARE = 4;
const spare: SharedArrayBuffer[] = [];
const registry = new FinalizationRegistry<SharedArrayBuffer>((memory) => {
  spare.push(memory);
  // Keep the largest: a buffer fits anything up to its size.
  if (spare.length > MAX_SPARE) spare.sort((x, y) => y.byteLength - x.byteLength).pop();
});

/** How many buffers of this thread took a spare one's memory (tests check that memory is used again). */
export let recycledCount = 0;

/**
 * A SharedArrayBuffer of at least `bytes` bytes: the memory of the smallest spare one that fits (its old contents are
 * NOT cleared: the caller writes every byte it reads) or else a new, zeroed one.
 */
export function recycledShared(bytes: number): SharedArrayBuffer {
  let best = -1;
  for (let i = 0; i < spare.length; i++) {
    if (spare[i]!.byteLength >= bytes && (best < 0 || spare[i]!.byteLength < spare[best]!.byteLength)) best = i;
  }
  const memory = best >= 0 ? spare.splice(best, 1)[0]! : new SharedArrayBuffer(bytes);
  if (best >= 0) recycledCount++;
  // Another SharedArrayBuffer object over the same memory: the holders reach only this one, so its collection says
  // they are done while `memory` (held by the registry) keeps the pages.
  const lent = structuredClone(memory);
  registry.register(lent, memory);
  reportToCollector(memory.byteLength);
  return lent;
}

/**
 * Tells V8's collector that `bytes` of memory went to a holder, as an ArrayBuffer of that size would: V8 (Node 20)
 * counts no SharedArrayBuffer memory in its heuristics, so without this the objects of dropped buffers waited for a
 * full collection that nothing asked for (40 dropped 48 MB SharedArrayBuffers in a row: no collection at all, 1.9 GB
 * held; the same as ArrayBuffers: 20 full collections, at most 96 MB), and their memory never came back to the spare
 * list. The ArrayBuffer is never touched: its zeroed pages are mapped, never faulted in, and unmapped at collection.
 */
function reportToCollector(bytes: number): void {
  void new ArrayBuffer(bytes);
}

/** `recycledShared` as a Float32Array of `length` elements (not cleared). */
export function recycledFloat32(length: number): Float32Array {
  return new Float32Array(recycledShared(4 * length), 0, length);
}
