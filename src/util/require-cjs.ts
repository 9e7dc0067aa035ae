import { createRequire } from 'node:module';

/**
 * require() for the CommonJS packages that are on the start path. An ESM import of one first
 * runs cjs-module-lexer over its source to find the named exports: @js-joda/core's bundle
 * took 65 ms that way against 12 ms by require(), @koa/router 53 against 21 (this machine).
 */
export const requireCjs = createRequire(import.meta.url);
