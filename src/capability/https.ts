// What the service asks of the HTTPS component (src/http/https.ts) without loading it: the port
// it answers on, for /info, the boot info screen and the mDNS announcement.
import { capabilityKey } from './capability-key.js';

export interface HttpsControl {
  /** The port HTTPS answers on, undefined while it is not listening. */
  port(): number | undefined;
}

/** Running when `https` is configured. */
export const HTTPS = capabilityKey<HttpsControl>('https');
