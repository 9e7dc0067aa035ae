// Faults of areas that play without drawing (audio), by area, for /status and /info.
// Keyed by the area's configuration object: each loaded configuration has its own.
import type { AreaConfig } from '../config/types.js';

const faults = new WeakMap<AreaConfig, string>();

export function setAreaFault(area: AreaConfig, fault: string | undefined): void {
  if (fault === undefined) faults.delete(area); else faults.set(area, fault);
}

export function areaFault(area: AreaConfig): string | undefined {
  return faults.get(area);
}
