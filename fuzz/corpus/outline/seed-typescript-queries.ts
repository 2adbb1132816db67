import type { QueryKey, QueryFunction, Updater } from './types'
import { hashKey } from './utils'

/** What a query observer reports; written one type parameter per line. */
export type QueryObserverResult<
  TData = unknown,
  TError = Error,
> = QueryObserverSuccessResult<TData, TError> | QueryObserverErrorResult<TData, TError>

export type QueryStatus = 'pending' | 'error' | 'success'

export interface QueryState<TData = unknown, TError = Error> {
  data: TData | undefined
  dataUpdatedAt: number
  error: TError | null
  status: QueryStatus
}

/** Short enough once its types lost what they nest: an array type stays `Key[]`. */
export function group<TData, TError>(
  rows: Array<QueryState<TData, TError>>,
  keys: Key[],
): Map<string, QueryState<TData, TError>[]> {
  return new Map()
}

/**
 * Groups queries by the keys they hash to: still long without what its types nest, so the
 * parameters are named without their types.
 */
export function groupQueries<TQueryFnData, TError>(
  queries: Array<QueryState<TQueryFnData, TError>>,
  keys: QueryKey[],
  hash: (key: QueryKey) => string = hashKey,
  onGroup?: (group: Array<QueryState<TQueryFnData, TError>>) => void,
): Map<string, QueryState<TQueryFnData, TError>[]> {
  const groups = new Map<string, QueryState<TQueryFnData, TError>[]>()
  return groups
}

/** Data-first and data-last: the shortest signature is a function type, whose parameters go. */
export const setQueryData: {
  (queryKey: QueryKey, updater: Updater<unknown, unknown>, options?: SetDataOptions): (client: QueryClient) => void
  (client: QueryClient, queryKey: QueryKey, updater: Updater<unknown, unknown>, options?: SetDataOptions): void
} = dual(3, (client: QueryClient, queryKey: QueryKey, updater: Updater<unknown, unknown>) => {})

/** A type computed from another: its value is read in the file, its name and parameters are used. */
export type DeepKeys<T, TDepth extends any[] = []> = TDepth['length'] extends 5
  ? never
  : T extends readonly any[]
    ? `${number}` | `${number}.${DeepKeys<T[number], [...TDepth, any]>}`
    : keyof T & string

export class QueryObserver<
  TQueryFnData = unknown,
  TError = Error,
  TData = TQueryFnData,
  TQueryKey extends QueryKey = QueryKey,
> extends Subscribable<QueryObserverListener<TData, TError>> {
  getOptimisticResult<TResult extends TData, TKey>(key: TKey): QueryObserverResult<TResult, TError> {
    return this.result
  }

  build(client: QueryClient): Query<TQueryFnData, TError, TData, TQueryKey> {
    return this.query
  }
}
