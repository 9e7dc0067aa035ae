// The unit's inventory in its retained status: where it is on the network, which groups it
// takes commands of, which configuration it runs and how its clock stands. Bounded like the
// rest of the summary: a unit with many interfaces or groups lists the first few and counts them.
import type { Status } from '../capability/status-types.js';
import type { HealthReport } from '../monitor/health.js';

const MAX_ADDRESSES = 4;
const MAX_GROUPS = 8;
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

interface FleetFacts {
  groups?: string[];
}

export function inventory(s: Status): Record<string, unknown> {
  const addresses = s.identity.addresses;
  const groups = (s.components.fleet as FleetFacts | undefined)?.groups ?? [];
  const clock = (s.components.health as HealthReport | undefined)?.clock;
  return {
    host: {
      hostname: cut(s.identity.hostname, 64),
      addresses: addresses
        .slice(0, MAX_ADDRESSES)
        .map((a) => ({ interface: cut(a.interface, 16), address: a.address, mac: a.mac })),
      ...(addresses.length > MAX_ADDRESSES ? { addressesNotListed: addresses.length - MAX_ADDRESSES } : {}),
    },
    groups: groups.slice(0, MAX_GROUPS).map((g) => cut(g, 32)),
    ...(groups.length > MAX_GROUPS ? { groupsNotListed: groups.length - MAX_GROUPS } : {}),
    ...(s.config.digest ? { digest: s.config.digest } : {}),
    clock: clock ? { synchronized: clock.synchronized, offsetMs: clock.offsetMs, source: clock.source } : null,
  };
}
