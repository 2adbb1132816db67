/**
 * @since 2.0.0
 */

/**
 * A command-line argument.
 *
 * @since 2.0.0
 */
export * as Args from "./Args.js"

/**
 * @since 2.0.0
 */
export * as CliApp from "./CliApp.js"

/**
 * @since 2.0.0
 */
export * as Command from "./Command.js"

/**
 * Renamed on its way out: not the module's name.
 *
 * @since 2.0.0
 */
export * as Options from "./internal/options.js"

// commands
export * from './commands/blur.js'
export * from './commands/clearContent.js'
export * from './commands/deleteRange.js'
export * from './helpers/index.js'
export * from './helpers/getText.js'
export * from './Editor'
