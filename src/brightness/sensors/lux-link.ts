// The seam between a light sensor and whatever carries its readings, after serialport's
// bindings-interface: a small interface, each method's contract written down, real devices in
// production and a mock binding (@serialport/binding-mock) in unit tests.

/** One open serial device: the part of serialport's BindingPortInterface a sensor uses. */
export interface SerialPortHandle {
  readonly isOpen: boolean;
  /** At least one byte; rejects with `canceled` set once closed here, any other error means the device went away. */
  read(buffer: Buffer, offset: number, length: number): Promise<{ buffer: Buffer; bytesRead: number }>;
  /** Resolves once the bytes are handed to the operating system. */
  write(buffer: Buffer): Promise<void>;
  close(): Promise<void>;
}

/**
 * How serial devices are opened: serialport's BindingInterface (bindings-cpp on Linux, MockBinding in tests), the part
 * used here.
 */
export interface SerialBinding {
  /** Rejects when the device is not there (ENOENT) or is held by another process. */
  open(options: { path: string; baudRate: number }): Promise<SerialPortHandle>;
}

export interface LuxLink {
  /** Where the readings come from, for logs and /status (`/dev/ttyUSB0`, `modbus-tcp 10.0.0.5:502`). */
  readonly where: string;
  /**
   * Opens the device. Resolves once a reading may be asked for; rejects when the device is not
   * there or refuses (unplugged, no such host). Called again after a failure: must not leak
   * what the failed attempt opened.
   */
  open(): Promise<void>;
  /**
   * One reading in lux. ascii: the newest line received since the previous read, or the next
   * one within `timeoutMs`; Modbus: one request and its answer. Rejects on a timeout, a
   * malformed answer or a closed link; the link stays open unless `onLost` was called.
   */
  read(timeoutMs: number): Promise<number>;
  /** Called at most once per open, when the link drops by itself (the device went away). */
  onLost(fn: (err: Error) => void): void;
  /** Closes whatever is open. Never rejects; calling it twice is harmless. */
  close(): Promise<void>;
}

export interface LinkDeps {
  /** Serial devices: the real binding unless a test passes MockBinding. */
  binding(): Promise<SerialBinding>;
}
