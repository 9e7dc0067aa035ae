// What the broker and the TLS layer say when a connection fails, in words an operator reads.

/** MQTT 5 DISCONNECT reason "Session taken over": another client connected with our id. */
export const TAKEN_OVER = 142;
export const CONNACK_REASONS: Record<number, string> = {
  4: 'bad user name or password',
  5: 'not authorized',
  134: 'bad user name or password',
  135: 'not authorized',
  133: 'client identifier not valid',
  138: 'banned',
  140: 'bad authentication method',
};

/**
 * Errors of the TLS layer: OpenSSL's and Node's TLS codes, and X.509 verification results
 * (CERT_HAS_EXPIRED, SELF_SIGNED_CERT_IN_CHAIN, UNABLE_TO_VERIFY_LEAF_SIGNATURE...).
 */
const TLS_CODE = new RegExp(
  `^(${[
    'ERR_(TLS|SSL|OSSL)_',
    'UNABLE_TO_',
    'CERT_',
    'CRL_',
    'DEPTH_ZERO_',
    'SELF_SIGNED_',
    'INVALID_(CA|PURPOSE)$',
    'PATH_LENGTH_',
    'HOSTNAME_MISMATCH$',
    'ERROR_IN_CE?RL?_',
  ].join('|')})`,
);

export function isTlsFailure(err: { code?: unknown }): boolean {
  return typeof err.code === 'string' && TLS_CODE.test(err.code);
}
