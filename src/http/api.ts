import type { Controller } from '../control/controller.js';
import type { ServiceConfig } from '../config/types.js';
import type { Frame } from '../output/types.js';

/** What the HTTP layer may ask of the running service; HTTP only adapts requests to it. */
export interface ServiceApi {
  /** False while starting or swapping configurations: requests get 503. */
  ready(): boolean;
  config(): ServiceConfig;
  controller(): Controller;
  /** The latest finished frame of the unit showing this display. */
  frame(displayId: string): Frame | undefined;
  /** Subscribes to every new frame of the unit showing this display; returns the unsubscribe function. */
  onFrame(displayId: string, fn: (frame: Frame) => void): () => void;
  status(): Record<string, unknown>;
  /** Loads config.json again; rejects with MldsError MLDS_CONFIG_INVALID when it has faults (the running one stays). */
  reload(): Promise<{ changed: boolean }>;
}
