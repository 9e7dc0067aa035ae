import type { Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { ownApiClosed, ownApiListening } from '../fetch/own-api.js';

/**
 * Listens on host:port (port 0 picks a free one); resolves with the port taken, which the
 * fetch layer then counts as the unit's own API and never fetches.
 */
export function listen(server: Server | HttpsServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const taken = (server.address() as AddressInfo).port;
      ownApiListening(server, taken);
      resolve(taken);
    });
  });
}

/** Stops taking connections and ends the open ones (live views never end by themselves). */
export function closeServer(server: Server | HttpsServer): Promise<void> {
  ownApiClosed(server);
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
