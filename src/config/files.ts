import { closeSync, constants, fstatSync, openSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { MAX_CONFIG_BYTES } from './depth.js';
import { fileKind } from '../util/regular-file.js';
import { packageRoot } from '../util/package-root.js';

export type AssetFolder = 'fonts' | 'images' | 'sounds';

/**
 * Finds `name` inside `<serviceDir>/<folder>` or else `<packageRoot>/<folder>`. A reference
 * that could leave the folder (absolute, `..`, a link pointing outside) is refused even if
 * the file exists, so a config can never make the service read arbitrary files.
 */
export function resolveAsset(
  serviceDir: string,
  folder: AssetFolder,
  name: string,
): { file: string } | { error: string } {
  const unsafe = unsafeReference(name, folder);
  if (unsafe) return { error: unsafe };
  for (const root of [serviceDir, packageRoot]) {
    const base = path.join(root, folder);
    const candidate = path.join(base, name);
    let real: string;
    try {
      real = realpathSync(candidate);
    } catch {
      continue;
    }
    let realBase: string;
    try {
      realBase = realpathSync(base);
    } catch {
      continue;
    }
    if (real !== realBase && !real.startsWith(realBase + path.sep))
      return { error: `"${name}" is a link that leads outside ${folder}/` };
    if (!statSync(real).isFile()) return { error: `"${name}" in ${folder}/ is not a file` };
    return { file: real };
  }
  return { error: `"${name}" was not found in ${folder}/` };
}

/** Why a file name could point outside its folder, or undefined when its form is safe. */
export function unsafeReference(name: string, folder: AssetFolder): string | undefined {
  if (name === '') return 'is empty';
  if (path.isAbsolute(name) || name.includes('\\'))
    return `"${name}" must be a file name inside ${folder}/, not an absolute path`;
  if (name.split('/').some((s) => s === '..'))
    return `"${name}" must not contain ".." (files must stay inside ${folder}/)`;
  return undefined;
}

/** Resolves a `$include` path inside the service directory with the same rules. */
export function resolveInclude(serviceDir: string, name: string): { file: string } | { error: string } {
  if (path.isAbsolute(name) || name.split(/[\\/]/).some((s) => s === '..'))
    return { error: `"${name}" must be a relative path inside the service directory` };
  try {
    const real = realpathSync(path.join(serviceDir, name));
    const base = realpathSync(serviceDir);
    if (!real.startsWith(base + path.sep))
      return { error: `"${name}" is a link that leads outside the service directory` };
    return { file: real };
  } catch {
    return { error: `"${name}" was not found in the service directory` };
  }
}

const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;

/** Why a configuration file of `size` bytes is refused before it is read, when `maxBytes` are left. */
export function configSizeError(size: number, maxBytes = MAX_CONFIG_BYTES): string | undefined {
  if (size <= maxBytes) return undefined;
  const left =
    maxBytes < MAX_CONFIG_BYTES ? ` (${mb(maxBytes)} were left after config.json and the files included before)` : '';
  return `is ${mb(size)}, more than the ${mb(MAX_CONFIG_BYTES)} a configuration may have in all${left}`;
}

/**
 * Reads a configuration file as UTF-8, refusing anything but a regular file: a FIFO would
 * block the whole service until something writes to it, a device may never end. Checked by
 * stat before opening (so a device is not even opened), opened non-blocking and checked again
 * on the descriptor (so a file swapped for a pipe in between cannot block either).
 */
export function readRegularFile(file: string, maxBytes = Infinity): { text: string } | { error: string } {
  let fd: number | undefined;
  try {
    const before = fileKind(statSync(file));
    if (before) return { error: `is ${before}, not a regular file` };
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
    const st = fstatSync(fd);
    const after = fileKind(st);
    if (after) return { error: `is ${after}, not a regular file` };
    // Before reading: a 12 MB file of a million fields would cost hundreds of MB once parsed and checked.
    const tooLarge = configSizeError(st.size, maxBytes);
    if (tooLarge) return { error: tooLarge };
    const text = readFileSync(fd, 'utf8');
    // Editors on Windows save a byte order mark; JSON.parse would call it an unexpected token.
    return { text: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return { error: `cannot be read: ${e.code ?? e.message}` };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
