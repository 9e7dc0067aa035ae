// The running capabilities on /info (crons, pollers, brightness, network...): each component's
// /status facts (`status.components.<name>`) rendered as one card. A capability with a card of
// its own registers it in CARDS; any other gets a plain key/value card, so nothing it reports
// is hidden from a technician.
import { alertsCard } from './alerts.js';
import { cronsCard, pollersCard } from './automation.js';
import { bootCard } from './boot.js';
import { feedbackCard } from './feedback.js';
import { feedsCard } from './feeds.js';
import { fleetCard, healthCard } from './fleet.js';
import { brightnessCard } from './brightness.js';
import { esc, kvCard, row, text, type Obj } from './format.js';
import { mediaCard } from './media.js';
import { networkCard } from './network.js';
import { systemdCard } from './systemd.js';
import { updateCard } from './update.js';

export type ComponentCard = (facts: Obj, zone: string) => string;

/** name -> card. One line per capability; each card lives in its own file beside this one. */
const CARDS: Record<string, ComponentCard> = {
  boot: bootCard,
  feedback: feedbackCard,
  feeds: feedsCard,
  fleet: fleetCard,
  health: healthCard,
  brightness: brightnessCard,
  crons: cronsCard,
  media: mediaCard,
  network: networkCard,
  pollers: pollersCard,
  systemd: systemdCard,
  alerts: alertsCard,
  update: updateCard,
};

/** Components that only tune the service and have nothing a technician acts on. */
const QUIET = new Set(['recheck']);

function plainCard(name: string, facts: Obj): string {
  const value = (v: unknown) => text(typeof v === 'object' && v !== null ? JSON.stringify(v) : v);
  return kvCard(
    name,
    name,
    Object.entries(facts)
      .map(([k, v]) => row(esc(k), value(v)))
      .join(''),
  );
}

export function componentCards(status: Obj, zone: string): string {
  const all = (status.components ?? {}) as Obj;
  return Object.entries(all)
    .filter(([name]) => !QUIET.has(name))
    .map(([name, facts]) => {
      const f = (facts ?? {}) as Obj;
      const card = CARDS[name];
      return card ? card(f, zone) : plainCard(name, f);
    })
    .join('\n');
}
