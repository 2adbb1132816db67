/**
 * Errors and services declared through their base class's type arguments, as effect-style
 * libraries write them.
 */
import * as Context from "effect/Context"
import { TypeIdError } from "./Error.js"
import type { Option } from "effect/Option"

export const TypeId: unique symbol = Symbol.for("@app/HttpError")
export type TypeId = typeof TypeId

/** A request that never reached the server. */
export class RequestError extends TypeIdError(TypeId, "RequestError")<{
  readonly request: ClientRequest
  readonly reason: "Transport" | "Encode" | "InvalidUrl"
  readonly cause?: unknown
  // Shown to users.
  readonly description?: string
}> {
  get methodAndUrl() {
    return `${this.request.method} ${this.request.url}`
  }

  get message() {
    return this.description ?? `${this.reason} error (${this.methodAndUrl})`
  }
}

export class QuitException extends TypeIdError(TypeId, "QuitException")<{}> {}

/** The file watcher a platform provides. */
export class WatchBackend extends Context.Tag("@app/FileSystem/WatchBackend")<
  WatchBackend,
  {
    readonly register: (path: string, onEvent: (event: { readonly path: string }) => void) => Option<Handle>
    readonly close: () => void
  }
>() {}

export interface Api<Groups> {
  new(_: never): {}
  readonly groups: ReadonlyArray<Groups>
  readonly prefix: string
}

// A component's props and state: the shapes its base is given, listed as the class's.
export class Counter extends Component<{ readonly initial: number; label?: string }, { open: boolean }> {
  count = 0
  increment(): void {
    this.count += 1
  }
}

type MissingSelf<Params extends string = ""> =
  `Missing \`Self\` generic - use \`class Self extends Class<Self>()(${Params}{ ... })\``

export interface Variants<Members> extends Union<{ readonly [K in keyof Members]: Members[K] }> {
  readonly members: Members
}

export const variants = <Members>(members: Members): Variants<Members> => ({ members }) as any

// Literals that are not the base's own arguments, or that list more than members, stay in the head.
export class Registry extends Mixin(Base, make<{ hidden: boolean }>()) implements Resolve<{ user: User }> {
  readonly entries = new Map<string, { id: string }>()
}

export interface Formatter extends Base<{ (value: number): string; readonly tag: "format" }> {}
