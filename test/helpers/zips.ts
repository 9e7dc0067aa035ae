// Archives for the /load_config tests, hostile ones included: python3's zipfile writes any
// entry name and any external attributes, which zip writers meant for real use refuse to.
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface ZipSpec {
  name: string;
  /** Content as text; or `zeros` bytes of 0 (compresses ~1000:1); or `random` incompressible bytes. */
  text?: string;
  base64?: string;
  zeros?: number;
  random?: number;
  /** Unix st_mode for the upper 16 bits of the external attributes (0o120777 = symlink). */
  mode?: number;
  deflate?: boolean;
}

const PY = `
import base64, json, os, sys, warnings, zipfile
warnings.simplefilter('ignore')
spec = json.load(sys.stdin)
with zipfile.ZipFile(spec['out'], 'w') as z:
    for e in spec['entries']:
        zi = zipfile.ZipInfo(e['name'], date_time=(2024, 1, 1, 0, 0, 0))
        zi.create_system = 3
        zi.compress_type = zipfile.ZIP_DEFLATED if e.get('deflate', True) else zipfile.ZIP_STORED
        zi.external_attr = (e.get('mode') or (0o40755 if e['name'].endswith('/') else 0o100644)) << 16
        if 'zeros' in e: data = bytes(e['zeros'])
        elif 'random' in e: data = os.urandom(e['random'])
        elif 'base64' in e: data = base64.b64decode(e['base64'])
        else: data = e.get('text', '').encode('utf-8')
        z.writestr(zi, data)
`;

export function makeZip(out: string, entries: ZipSpec[]): string {
  execFileSync('python3', ['-c', PY], { input: JSON.stringify({ out, entries }) });
  return out;
}

/**
 * Every file under `root` (dot entries included unless `skipDot`) as relative path -> bytes, folders as path/ -> empty.
 */
export function snapshot(root: string, skipDot = false, rel = ''): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const name of readdirSync(path.join(root, rel)).sort()) {
    if (skipDot && rel === '' && name.startsWith('.')) continue;
    const r = rel ? `${rel}/${name}` : name;
    const st = lstatSync(path.join(root, r));
    if (st.isDirectory()) {
      out.set(`${r}/`, Buffer.alloc(0));
      for (const [k, v] of snapshot(root, skipDot, r)) out.set(k, v);
    } else out.set(r, readFileSync(path.join(root, r)));
  }
  return out;
}

/** A folder's tree as zip entries (folders included), for archiving a source tree as-is. */
export function entriesOf(root: string): ZipSpec[] {
  return [...snapshot(root)].map(([name, bytes]) =>
    name.endsWith('/') ? { name } : { name, base64: bytes.toString('base64') },
  );
}

/**
 * A loopback server of the archives in `served`, by name (`/<name>`); `special` may answer a
 * name itself first (a stalled or slow download) and returns true when it did.
 */
export async function archiveServer(
  served: Map<string, Buffer>,
  special: (name: string, res: ServerResponse) => boolean = () => false,
): Promise<{ base: string; close(): void }> {
  const server = createServer((req, res) => {
    const name = (req.url ?? '/').slice(1);
    if (special(name, res)) return;
    const body = served.get(name);
    if (!body) return void res.writeHead(404).end('not here');
    res.writeHead(200, { 'content-type': 'application/zip' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
