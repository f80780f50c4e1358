import { Piscina } from 'piscina';
import type { TaskQueue } from 'piscina';

type QueuedTask = Parameters<TaskQueue['push']>[0];

/** What a task payload carries for {@link PriorityTaskQueue} (under `Piscina.queueOptionsSymbol`; never sent to a worker). */
export interface TaskPriority {
  /** Higher runs first; tasks of one priority run in the order they were queued. */
  priority: number;
}

/** `task` with its priority for a {@link PriorityTaskQueue} (structured clone drops symbol keys: the worker never sees it). */
export function withPriority<T extends object>(task: T, priority: number): T {
  return Object.assign(task, { [Piscina.queueOptionsSymbol]: { priority } satisfies TaskPriority });
}

const priorityOf = (task: QueuedTask): number => ((task as unknown as Record<symbol, TaskPriority | null | undefined>)[Piscina.queueOptionsSymbol])?.priority ?? 0;

/**
 * A Piscina task queue by priority, first in first out within one priority: a pool's threads take the tasks that
 * unlock others (decode, luma, the JPEG round trip) and the merges of split kernels (which would otherwise wait behind
 * every band queued before them and run last, one thread busy and the other idle) before the kernels' bands.
 */
export class PriorityTaskQueue implements TaskQueue {
  private readonly tasks: QueuedTask[] = [];

  get size(): number {
    return this.tasks.length;
  }

  push(task: QueuedTask): void {
    const priority = priorityOf(task);
    let i = this.tasks.length;
    while (i > 0 && priorityOf(this.tasks[i - 1]!) < priority) i--;
    this.tasks.splice(i, 0, task);
  }

  /** A task Piscina took and could not place goes back ahead of those of its priority. */
  unshift(task: QueuedTask): void {
    const priority = priorityOf(task);
    let i = 0;
    while (i < this.tasks.length && priorityOf(this.tasks[i]!) > priority) i++;
    this.tasks.splice(i, 0, task);
  }

  shift(): QueuedTask | null {
    return this.tasks.shift() ?? null;
  }

  remove(task: QueuedTask): void {
    const i = this.tasks.indexOf(task);
    if (i >= 0) this.tasks.splice(i, 1);
  }
}
