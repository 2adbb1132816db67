import type * as Types from "./Types.js"

/** A class built by a function called at once, typed by its constructor: the type is its API. */
export const Structural: new <A>(args: Types.Simplify<A>) => {} = (function () {
  function Structural(this: any, args: any) {
    Object.assign(this, args)
  }
  Structural.prototype = StructuralPrototype
  return Structural as any
})()

/** Untyped, the function it declares is what the name is bound to. */
export const createThunk = /* @__PURE__ */ (() => {
  function createThunk<Returned, Arg>(typePrefix: string, payloadCreator: (arg: Arg) => Returned) {
    return { typePrefix, payloadCreator }
  }
  createThunk.withTypes = () => createThunk
  return createThunk
})()
