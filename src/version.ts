import { readFileSync } from 'node:fs';
import { packageRoot } from './util/package-root.js';

export const VERSION: string = (JSON.parse(readFileSync(`${packageRoot}package.json`, 'utf8')) as { version: string })
  .version;
