// The package's public surface: everything is re-exported from here.
/// <reference path="./globals.d.ts" />

/* Core */
export { Store, type Key } from './store';
export { BaseStore as Base, createStore } from './store';
export * from './codec';
export * as levels from './levels';

import { internalReset } from './internal';

const registry = new Map<string, unknown>();

export { registry, internalReset as reset };
export default registry;
export type { Options } from './options';
