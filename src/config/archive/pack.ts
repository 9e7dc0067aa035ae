import { lstatSync, readFileSync } from 'node:fs';
import path from 'node:path';
import yazl from 'yazl';
import { ConfigError, escape, pointer, type ConfigFault } from '../faults.js';
import { assetReferences } from '../asset-references.js';
import { resolveAsset, resolveInclude } from '../files.js';
import { expandIncludes } from '../include.js';

export interface PackedConfiguration {
  zip: Buffer;
  /** Archive names in archive order: config.json first. */
  files: string[];
  /** References that could not be packed (missing file, a name leaving its folder, TLS files), with their JSON path. */
  skipped: ConfigFault[];
}

type Raw = Record<string, unknown>;
const isObj = (v: unknown): v is Raw => v !== null && typeof v === 'object' && !Array.isArray(v);
/** Already compressed: deflating them again costs CPU for nothing. */
const STORED = /\.(png|jpe?g|gif|mp4|mp3)$/i;

/**
 * The configuration as a zip that loads onto another unit unchanged: config.json as it is on
 * disk, every `$include`d file, brightness-schedule.json when present, and every font and
 * image it references under fonts/ and images/ by the names the configuration uses, including
 * those found in the package's own folders. TLS certificate and key are left out (a private
 * key never leaves the unit) and listed in `skipped`.
 */
export async function packConfiguration(configFile: string): Promise<PackedConfiguration> {
  const abs = path.resolve(configFile);
  const dir = path.dirname(abs);
  const text = readFileSync(abs);
  let raw: unknown;
  try {
    raw = JSON.parse(text.toString('utf8'));
  } catch (err) {
    throw new ConfigError([{ path: '', message: `config.json is not valid JSON: ${(err as Error).message}` }]);
  }
  if (!isObj(raw)) throw new ConfigError([{ path: '', message: 'config.json must hold a JSON object' }]);

  const zip = new yazl.ZipFile();
  const files: string[] = [];
  const skipped: ConfigFault[] = [];
  const add = (name: string, from: { file: string } | { buffer: Buffer }) => {
    if (files.includes(name)) return;
    files.push(name);
    const opts = { compress: !STORED.test(name), mode: 0o100644 };
    if ('buffer' in from) zip.addBuffer(from.buffer, name, opts);
    else zip.addFile(from.file, name, opts);
  };
  add('config.json', { buffer: text });
  collectIncludes(raw, dir, add, skipped, '', []);
  const expanded = expandIncludes(raw, dir, []) as Raw;
  for (const ref of assetReferences(expanded)) {
    const r = resolveAsset(dir, ref.folder, ref.name);
    if ('error' in r) skipped.push({ path: ref.at, message: r.error });
    else add(`${ref.folder}/${path.posix.normalize(ref.name)}`, { file: r.file });
  }
  const schedule = path.join(dir, 'brightness-schedule.json');
  if (isFile(schedule)) add('brightness-schedule.json', { file: schedule });
  mqttFiles(expanded, dir, add, skipped);
  if (isObj(expanded.https))
    skipped.push({
      path: '/https',
      message: 'the TLS certificate and key are not exported; install them on the other unit separately',
    });

  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return { zip: Buffer.concat(chunks), files, skipped };
}

/**
 * The broker login travels like the API keys: its password is in config.json, and
 * its PEM files go along by the names the configuration gives them, when inside the folder.
 */
function mqttFiles(
  config: Raw,
  dir: string,
  add: (name: string, from: { file: string }) => void,
  skipped: ConfigFault[],
): void {
  if (!isObj(config.mqtt)) return;
  for (const field of ['ca', 'cert', 'key']) {
    const name = config.mqtt[field];
    if (typeof name !== 'string') continue;
    const rel = path.posix.normalize(name);
    if (path.isAbsolute(rel) || rel.startsWith('../') || !isFile(path.join(dir, rel)))
      skipped.push({
        path: pointer('mqtt', field),
        message: `${name} is not a file inside the service folder; install it on the other unit separately`,
      });
    else add(rel, { file: path.join(dir, rel) });
  }
}

/** Every `$include`d file, by the name the configuration gives it (includes are relative to the service directory). */
function collectIncludes(
  value: unknown,
  dir: string,
  add: (name: string, from: { buffer: Buffer }) => void,
  skipped: ConfigFault[],
  at: string,
  chain: string[],
): void {
  if (Array.isArray(value)) {
    value.forEach((v, i) => collectIncludes(v, dir, add, skipped, `${at}/${i}`, chain));
    return;
  }
  if (!isObj(value)) return;
  if (typeof value.$include === 'string' && Object.keys(value).length === 1) {
    const r = resolveInclude(dir, value.$include);
    if ('error' in r) {
      skipped.push({ path: at, message: `$include ${r.error}` });
      return;
    }
    if (chain.includes(r.file)) return;
    const bytes = readFileSync(r.file);
    add(path.posix.normalize(value.$include), { buffer: bytes });
    let parsed: unknown;
    try {
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch {
      return;
    }
    collectIncludes(parsed, dir, add, skipped, at, [...chain, r.file]);
    return;
  }
  for (const [k, v] of Object.entries(value)) collectIncludes(v, dir, add, skipped, `${at}/${escape(k)}`, chain);
}

function isFile(p: string): boolean {
  try {
    return lstatSync(p).isFile();
  } catch {
    return false;
  }
}
