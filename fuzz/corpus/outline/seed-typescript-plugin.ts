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

/** A function value declares its types as a declared function does (effect's tagged errors). */
export const TaggedError = <Tag extends string>(tag: Tag) => {
  class Base extends Error {
    readonly _tag = tag
  }
  return Base
}

/** A generic arrow whose body is an expression: the grammar may read `<A, E>` as an assertion. */
export const join = <A, E>(self: Handle<A, E>): Effect<void, E> =>
  Deferred.await(self.deferred as Deferred<void, E>)

/** Typed as a function: the type is the signature, the value's parameters would repeat it. */
export const firstOf: <A>(items: ReadonlyArray<A>) => A | undefined = (items) => items[0]
