import type { Table, Row, RowData, Updater, OnChangeFn } from './types'
import { dual } from './function'

/** Pagination state kept by the table. */
export interface PaginationState {
  pageIndex: number
  pageSize: number
}

export type PaginationDefaults = Pick<
  PaginationOptions,
  'onPaginationChange' | 'autoResetPageIndex' | 'pageCount'
>

export type PageRange<TData extends RowData, TIndex = number> = Partial<Record<keyof PaginationState, Array<Row<TData>>>> & { first?: TIndex }

export interface PaginationOptions {
  /**
   * Enables manual pagination: the rows passed in are the page.
   */
  manualPagination?: boolean
  /** Called with an updater when the pagination state changes. */
  onPaginationChange?: OnChangeFn<PaginationState>
  autoResetPageIndex?: boolean
  pageCount?: number
  rowCount?: number
  getPaginationRowModel?: (table: Table<any>) => () => Array<Row<any>>
}

export interface PaginationInstance<TData extends RowData>
  extends PaginationOptions, PaginationDefaultsInstance<TData>, Record<string, unknown> {
  /** Sets the page index from an updater. */
  setPageIndex: (updater: Updater<number>) => void
  setPageSize: (updater: Updater<number>) => void
  resetPageIndex: (defaultState?: boolean) => void
  getCanPreviousPage: () => boolean
  getCanNextPage: () => boolean
  previousPage: () => void
  nextPage: () => void
  getPageCount: () => number
}

export class PaginationError extends Error {
  readonly pageIndex: number
  constructor(pageIndex: number) {
    super(`page ${pageIndex} out of range`)
    this.pageIndex = pageIndex
  }
}

/**
 * Clamps a page index to the pages there are.
 */
export const clampPage: {
  /** Data-last. */
  (pageCount: number): (pageIndex: number) => number
  (pageIndex: number, pageCount: number): number
} = dual(2, (pageIndex: number, pageCount: number): number =>
  Math.max(0, Math.min(pageIndex, pageCount - 1)))

export const firstPage: (state: PaginationState) => PaginationState = (state) => ({ ...state, pageIndex: 0 })

/** Sent when the page changes; the event's payload type declares its members. */
export interface PageChange extends PaginationEvent<'pagechange', {
  readonly previousIndex: number
  readonly nextIndex: number
  readonly table: Table<unknown>
}> {}

/** Where a page sits, written one member a line. */
export type PagePosition = {
  pageIndex: number
  isLast: boolean // no rows after it, so: the end
}

export const pageOf = (at: {
  row: number
  size: number
}): number => Math.floor(at.row / at.size)

/** The pagination feature: hooks the table calls as it builds its columns and itself. */
export const Pagination: TableFeature = {
  getInitialState: (state): PaginationState => {
    return { pageIndex: 0, pageSize: 10, ...state }
  },

  createTable: <TData extends RowData>(table: Table<TData>): void => {
    table.setPageIndex = updater => table.setState(old => ({ ...old, pageIndex: updater }))
  },

  getDefaultOptions(table) {
    return { onPaginationChange: makeStateUpdater('pagination', table) }
  },

  defaults: { pageSize: 10 },
}

export const defaultPageSizes = { small: 10, large: 50 }
