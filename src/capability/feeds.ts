// The feeds component (src/feeds) as others find it: the BoardSource every unit's departures
// areas read.
import type { BoardSource } from '../config/board-source.js';
import { capabilityKey } from './capability-key.js';

/** Running when `feeds` is configured. */
export const FEEDS = capabilityKey<BoardSource>('feeds');
