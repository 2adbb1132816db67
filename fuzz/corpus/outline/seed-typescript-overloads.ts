import { Observable } from './Observable';
import type { SchedulerLike } from './types';

/** Emits the values of an array-like, then completes. */
export function from<T>(input: ArrayLike<T>): Observable<T>;
export function from<T>(input: ArrayLike<T>, scheduler: SchedulerLike): Observable<T>;
export function from<T>(
  input: PromiseLike<T>,
  scheduler?: SchedulerLike,
): Observable<T>;
export function from<T>(input: any, scheduler?: SchedulerLike): Observable<T> {
  return scheduler ? scheduled(input, scheduler) : innerFrom(input);
}

export function timer(due: number): Observable<0>;
export function timer(due: number | Date, interval: number): Observable<number>;

export class Cache<K, V> {
  get(key: K): V | undefined;
  get(key: K, fallback: V): V;
  get(key: K, fallback?: V): V | undefined {
    return this.map.get(key) ?? fallback;
  }

  get size(): number {
    return this.map.size;
  }

  set size(limit: number) {
    this.limit = limit;
  }

  private map = new Map<K, V>();
  private limit = 0;
}
