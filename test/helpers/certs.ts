// Certificates for the TLS tests, made with openssl on the machine.
import { execFileSync } from 'node:child_process';

/**
 * A self-signed EC (P-256) certificate for `subject` (e.g. `/CN=localhost`), valid for two days, written as PEM to
 * `cert` with its unencrypted key to `key`; `altName` is its subjectAltName (e.g. `DNS:localhost`), if any.
 */
export function selfSigned(cert: string, key: string, subject: string, altName?: string): void {
  const ext = altName ? ['-addext', `subjectAltName=${altName}`] : [];
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
      ...['-keyout', key, '-out', cert, '-days', '2', '-subj', subject, ...ext],
    ],
    { stdio: 'ignore' },
  );
}
