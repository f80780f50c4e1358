import { Piscina } from 'piscina';
import { describe, expect, it } from 'vitest';
import { PriorityTaskQueue, withPriority } from '../src/internal/priorityTaskQueue.js';

type Queued = Parameters<PriorityTaskQueue['push']>[0];

/** A queued task as Piscina hands it to its queue: the payload's queue options under the symbol. */
const task = (name: string, priority?: number): Queued & { name: string } =>
  ({ name, [Piscina.queueOptionsSymbol]: priority === undefined ? null : { priority } }) as unknown as Queued & { name: string };

describe('PriorityTaskQueue', () => {
  it('gives tasks by priority, first in first out within one, and takes a returned task back ahead of its priority', () => {
    const queue = new PriorityTaskQueue();
    const [a, b, c, d, e] = [task('a', 1), task('b', 3), task('c', 1), task('d', 2), task('e')];
    for (const t of [a, b, c, d, e]) queue.push(t);
    expect(queue.size).toBe(5);
    const first = queue.shift()!;
    expect(first).toBe(b);
    queue.unshift(first);
    const f = task('f', 3);
    queue.unshift(f);
    queue.remove(c);
    const order: string[] = [];
    for (let t = queue.shift(); t; t = queue.shift()) order.push((t as unknown as { name: string }).name);
    expect(order).toEqual(['f', 'b', 'd', 'a', 'e']);
    expect(queue.size).toBe(0);
  });

  it('withPriority marks a payload under a symbol, which structured cloning leaves out', () => {
    const payload = withPriority({ id: 'ela' }, 2);
    expect((payload as unknown as Record<symbol, unknown>)[Piscina.queueOptionsSymbol]).toEqual({ priority: 2 });
    expect(structuredClone(payload)).toEqual({ id: 'ela' });
    expect(Object.getOwnPropertySymbols(structuredClone(payload))).toEqual([]);
  });
});
