// A downloaded file checked against the SHA-256 its command gave, before anything uses it.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { MldsError } from '../errors.js';

/** Refuses a downloaded file whose SHA-256 is not `expected` (hex, either case), before anything uses it. */
export async function checkFileDigest(file: string, expected: string): Promise<void> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  const actual = hash.digest('hex');
  if (actual !== expected.toLowerCase())
    throw new MldsError(
      'MLDS_DIGEST_MISMATCH',
      `the download's SHA-256 is ${actual}, not the ${expected.toLowerCase()} the command gave; nothing was changed`,
      'sha256',
    );
}
