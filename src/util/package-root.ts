import { fileURLToPath } from 'node:url';

/** The checkout or installed package: its fonts/ and images/ are the fallback after the service directory's. */
export const packageRoot = fileURLToPath(new URL('../../', import.meta.url));
