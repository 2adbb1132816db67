import { EventEmitter } from "events";
import type { Readable } from "stream";
import * as path from "path";

export const VERSION = "1.2.0";

export type Key = string | number;

export interface Store<K extends Key, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  readonly size: number;
}

export enum Level {
  Debug,
  Info = "info",
}

/** Overloaded lookup. */
export function find(key: string): string;
export function find(key: number): number;
export function find(key: Key): Key {
  return key;
}

export abstract class BaseStore<K extends Key, V> extends EventEmitter implements Store<K, V> {
  protected items = new Map<K, V>();

  constructor(private readonly name: string) {
    super();
  }

  abstract get(key: K): V | undefined;

  set(key: K, value: V): void;
  set(key: K, value: V, ttl?: number): void {
    this.items.set(key, value);
  }

  get size(): number {
    return this.items.size;
  }
}

export namespace Codec {
  export function encode<T>(value: T): string {
    return JSON.stringify(value);
  }

  export const decode = <T,>(text: string): T => JSON.parse(text) as T;
}

declare module "events" {
  interface EventEmitter {
    tag?: string;
  }
}

export const createStore = async <V>(name: string, source?: Readable): Promise<BaseStore<string, V>> => {
  throw new Error(`not implemented: ${name}`);
};
