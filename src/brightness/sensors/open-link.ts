// Opens the link a sensor's protocol needs; each kind of link is loaded on first use, so a
// configuration without sensors never loads serialport or modbus-serial.
import type { SensorConfig } from '../../config/types.js';
import type { LinkDeps, LuxLink, SerialBinding } from './lux-link.js';

/** The real serial binding, loaded on first use: an unconfigured sensor costs nothing. */
export async function systemBinding(): Promise<SerialBinding> {
  const { SerialPort } = await import('serialport');
  return SerialPort.binding;
}

export async function linkFor(cfg: SensorConfig, deps: LinkDeps): Promise<LuxLink> {
  switch (cfg.protocol) {
    case 'ascii':
      return new (await import('./ascii.js')).AsciiLink(cfg.path!, cfg.baudRate, deps);
    case 'modbus-rtu':
      return new (await import('./modbus-rtu.js')).RtuLink(cfg.path!, cfg.baudRate, cfg.unitId, cfg.register, deps);
    case 'modbus-tcp':
      return new (await import('./modbus-tcp.js')).TcpLink(cfg.host!, cfg.port ?? 502, cfg.unitId, cfg.register);
  }
}
