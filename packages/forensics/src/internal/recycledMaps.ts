/**
 * Full-resolution float32 maps whose memory is used again once their holder has let go of them: a fresh 48 MB map
 * (12 MP) costs a page fault per 4 KiB on its first write, which took about as much time as the rest of ELA's whole
 * path beyond its codec floor (issue 35). Each map is a view on its own SharedArrayBuffer object over memory this
 * module keeps: when the garbage collector has taken that object (no view, no `.buffer` of this thread refers to it
 * any more), a FinalizationRegistry puts the memory back on a short spare list for the next map.
 *
 * The memory is shared: a thread the map is posted to (`postMessage`, a pool task) reads the same bytes, not a copy.
 * Keep the map (or its buffer) referenced on this thread until such a thread is done with it, or post a copy; once no
 * object of this thread holds it, a later map may be written there.
 */

/** Spare buffers kept for the next maps (the largest; each one map's memory, 48 MB at 12 MP). */
const MAX_SPARE = 2;
const spare: SharedArrayBuffer[] = [];
const registry = new FinalizationRegistry<SharedArrayBuffer>((memory) => {
  spare.push(memory);
  // Keep the largest: a buffer fits any map up to its size.
  if (spare.length > MAX_SPARE) spare.sort((x, y) => y.byteLength - x.byteLength).pop();
});

/** How many maps took a spare buffer in this thread (tests check that memory is used again). */
export let recycledMapCount = 0;

/**
 * A Float32Array of `length` elements whose memory is a spare buffer when one fits (the smallest; its old contents are
 * NOT cleared: the caller writes every element) or else a new, zeroed SharedArrayBuffer.
 */
export function recycledFloat32(length: number): Float32Array {
  const bytes = 4 * length;
  let best = -1;
  for (let i = 0; i < spare.length; i++) {
    if (spare[i]!.byteLength >= bytes && (best < 0 || spare[i]!.byteLength < spare[best]!.byteLength)) best = i;
  }
  const memory = best >= 0 ? spare.splice(best, 1)[0]! : new SharedArrayBuffer(bytes);
  if (best >= 0) recycledMapCount++;
  // Another SharedArrayBuffer object over the same memory: the map's holders reach only this one, so its collection
  // says they are done while `memory` (held by the registry) keeps the pages.
  const lent = structuredClone(memory);
  registry.register(lent, memory);
  return new Float32Array(lent, 0, length);
}
