// The HTTPS certificate and key, and the MQTT client's: read and checked the same way when a
// configuration loads (a fault at /https/key or /mqtt/key keeps the running configuration) and
// when the HTTPS server takes them, so a pair that passed the check is the pair that is served.
import { createHash, createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type * as Tls from 'node:tls';
import path from 'node:path';
import { requireCjs } from '../util/require-cjs.js';

export interface TlsPair {
  cert: Buffer;
  key: Buffer;
  /** Changes whenever either file's bytes change: a renewed certificate makes a reload swap it in. */
  fingerprint: string;
  subject: string;
  notAfter: string;
  /** SHA-256 of the certificate (what a browser shows), never anything of the key. */
  certSha256: string;
}

export interface TlsFault {
  field: 'cert' | 'key';
  message: string;
}

/** Relative paths are relative to the service directory (DECISIONS: https). */
export function tlsPath(serviceDir: string, file: string): string {
  return path.resolve(serviceDir, file);
}

export function readPem(file: string, what: string): Buffer | string {
  try {
    if (!statSync(file).isFile()) return `${what} ${file} is not a regular file`;
    return readFileSync(file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'does not exist'
        : code === 'EACCES'
          ? 'cannot be read by the service (permission denied)'
          : `cannot be read (${code ?? (err as Error).message})`;
    return `${what} ${file} ${why}`;
  }
}

/** Reads and checks a certificate and its private key; every problem is a fault naming the file. */
export function readTlsPair(certFile: string, keyFile: string): { pair: TlsPair } | { faults: TlsFault[] } {
  const faults: TlsFault[] = [];
  const cert = readPem(certFile, 'the certificate');
  const key = readPem(keyFile, 'the key');
  if (typeof cert === 'string') faults.push({ field: 'cert', message: cert });
  if (typeof key === 'string') faults.push({ field: 'key', message: key });
  let x509: X509Certificate | undefined;
  let keyObj: KeyObject | undefined;
  if (typeof cert !== 'string') {
    try {
      x509 = new X509Certificate(cert);
    } catch {
      faults.push({ field: 'cert', message: `${certFile} holds no PEM certificate` });
    }
  }
  if (typeof key !== 'string') {
    try {
      keyObj = createPrivateKey(key);
    } catch (err) {
      // OpenSSL's message for a key it cannot decrypt without a passphrase says nothing of one; the PEM header does.
      const encrypted =
        /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(key.toString('latin1')) ||
        (err as NodeJS.ErrnoException).code === 'ERR_MISSING_PASSPHRASE';
      faults.push({
        field: 'key',
        message: encrypted
          ? `${keyFile} is encrypted with a passphrase; the service needs an unencrypted key (readable by the ` +
            `service only)`
          : `${keyFile} holds no PEM private key`,
      });
    }
  }
  if (x509 && keyObj && !x509.checkPrivateKey(keyObj)) {
    faults.push({
      field: 'key',
      message:
        `${keyFile} is not the private key of the certificate in ${certFile} (the certificate and key do ` +
        `not match)`,
    });
  }
  if (faults.length || !x509 || typeof cert === 'string' || typeof key === 'string') return { faults };
  try {
    // node:tls loads here, with the first certificate a configuration names, not with every start.
    (requireCjs('node:tls') as typeof Tls).createSecureContext({ cert, key });
  } catch (err) {
    return {
      faults: [{ field: 'cert', message: `${certFile} and ${keyFile} are refused by TLS: ${(err as Error).message}` }],
    };
  }
  return {
    pair: {
      cert,
      key,
      fingerprint: createHash('sha256').update(cert).update('\0').update(key).digest('base64'),
      subject: x509.subject.replace(/\n/g, ', '),
      notAfter: new Date(x509.validTo).toISOString(),
      certSha256: x509.fingerprint256,
    },
  };
}
