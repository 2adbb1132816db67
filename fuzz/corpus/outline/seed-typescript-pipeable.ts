import type { Kind, TypeLambda } from "./hkt"

/**
 * Builds a function callable data-first, `combine(self, that)`, or data-last,
 * `pipe(self, combine(that))`.
 *
 * @since 1.0.0
 */
export const dataFirstOrLast: {
  /**
   * Picks the style by the number of arguments.
   */
  <Curried extends (...args: Array<any>) => any, Direct extends (...args: Array<any>) => any>(
    arity: Parameters<Direct>["length"],
    body: Direct
  ): Curried & Direct
  /**
   * Picks the style with a predicate over the arguments.
   */
  <Curried extends (...args: Array<any>) => any, Direct extends (...args: Array<any>) => any>(
    isDirect: (args: IArguments) => boolean,
    body: Direct
  ): Curried & Direct
} = function(arity, body) {
  const direct = typeof arity === "number" ? (args: IArguments) => args.length >= arity : arity
  return function(this: unknown) {
    if (direct(arguments)) {
      return body.apply(this, arguments)
    }
    const args = arguments
    return (self: any) => body(self, ...args)
  }
}

/**
 * A comparison that can be applied in either style.
 */
export interface Comparator<in A> {
  <B extends A>(that: B): (self: B) => number
  <B extends A>(self: B, that: B): number
}

export const compareBy: {
  <A, B>(f: (a: A) => B, order: Comparator<B>): (self: A, that: A) => number
  <A, B>(self: A, that: A, f: (a: A) => B, order: Comparator<B>): number
} = dataFirstOrLast(4, (self, that, f, order) => order(f(self), f(that)))

export const member: {
  <V>(key: V): (self: Set<V>) => boolean
  <V>(self: Set<V>, key: V): boolean
} = dataFirstOrLast<
  <V>(key: V) => (self: Set<V>) => boolean,
  <V>(self: Set<V>, key: V) => boolean
>(2, (self, key) => self.has(key))

export interface PipeableTypeLambda extends TypeLambda {
  readonly type: Kind<this["Target"], this["In"]>
}

export const constant = <A>(value: A) => (): A => value

export function flip<A extends Array<unknown>, B extends Array<unknown>, C>(
  f: (...a: A) => (...b: B) => C
): (...b: B) => (...a: A) => C {
  return (...b) => (...a) => f(...a)(...b)
}

export declare namespace Endpoint {
  export type Request<Ep extends Endpoint.Any> = Ep extends EndpointDefinition<
    infer _Name,
    infer _Method,
    infer _Path,
    infer _UrlParams,
    infer _Payload,
    infer _Headers,
    infer _Success,
    infer _Error,
    infer _R,
    infer _RE
  > ?
      & ([_Path] extends [never] ? {} : { readonly path: _Path })
      & ([_UrlParams] extends [never] ? {} : { readonly urlParameters: _UrlParams })
      & ([_Payload] extends [never] ? {} : { readonly payload: _Payload })
      & ([_Headers] extends [never] ? {} : { readonly requestHeaders: _Headers })
    : {}
}
