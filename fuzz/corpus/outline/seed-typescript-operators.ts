/* Operators: every one lives in its own module. */
export { audit } from './internal/operators/audit';
export { auditTime } from './internal/operators/auditTime';
export { buffer, BufferConfig } from './internal/operators/buffer';
export { bufferCount } from './internal/operators/bufferCount';

/* Both from one module. */
export { merge } from './internal/observable/merge';
export { mergeAll, MergeAllConfig } from './internal/observable/merge';

export * from './internal/types';
export { config } from './internal/config';
