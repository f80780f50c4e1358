/**
 * The promise cached under `key`, created by `create` on first use and shared by every later caller; a promise
 * that rejects is dropped from the cache, so the next call tries again.
 */
export function cachedPromise<K, V>(cache: Map<K, Promise<V>>, key: K, create: () => Promise<V>): Promise<V> {
  let promise = cache.get(key);
  if (promise === undefined) {
    const created = create();
    created.catch(() => {
      if (cache.get(key) === created) cache.delete(key);
    });
    cache.set(key, created);
    promise = created;
  }
  return promise;
}
