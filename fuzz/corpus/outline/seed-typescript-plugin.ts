import { registerPlugin, Draft } from "./internal"

const CACHE_LIMIT = 64

/** Installs support for drafting maps; nothing is paid for until it is called. */
export function enableMapDrafts() {
  const seen = new WeakSet<object>()

  class DraftMap<K, V> extends Map<K, V> {
    private readonly base: Map<K, V>

    constructor(base: Map<K, V>) {
      super()
      this.base = base
    }

    get(key: K): V | undefined {
      return this.has(key) ? super.get(key) : this.base.get(key)
    }
  }

  interface DraftOptions {
    readonly deep: boolean
  }

  function proxyMap<K, V>(target: Map<K, V>, options: DraftOptions): DraftMap<K, V> {
    seen.add(target)
    return new DraftMap(target)
  }

  registerPlugin("MapSet", { proxyMap })
}

export function helper(limit = CACHE_LIMIT): number {
  const inner = () => limit * 2
  return inner()
}
