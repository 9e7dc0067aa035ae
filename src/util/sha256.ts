/** A SHA-256 digest written as hex, as commands give it (`sha256`). */
export const SHA256_HEX = /^[0-9a-fA-F]{64}$/;
