// The topic names (docs/fleet.md): one place, so the docs, the tests and the code agree.
import type { MqttSettings } from '../config/types.js';

export interface Topics {
  cmd: string;
  groupCmds: string[];
  allCmd: string;
  confirm: string;
  status: string;
  availability: string;
  admin: string;
  /** The groups' admin topics: subscribed only with `groupAdmin`. */
  groupAdmins: string[];
  adminResult: string;
  /** Desired state documents in merge order: the groups' in the order of `groups`, then the unit's own. */
  desired: string[];
  /** The unit's retained report of what it converged to. */
  reported: string;
  /** Where a screenshot of a display is published (once, not retained). */
  screenshot(displayId: string): string;
}

export function topicsOf(s: Pick<MqttSettings, 'prefix' | 'unit' | 'groups' | 'groupAdmin'>): Topics {
  const unit = `${s.prefix}/${s.unit}`;
  return {
    cmd: `${unit}/cmd`,
    groupCmds: s.groups.map((g) => `${s.prefix}/group/${g}/cmd`),
    allCmd: `${s.prefix}/all/cmd`,
    confirm: `${unit}/confirm`,
    status: `${unit}/status`,
    availability: `${unit}/availability`,
    admin: `${unit}/admin`,
    groupAdmins: s.groupAdmin ? s.groups.map((g) => `${s.prefix}/group/${g}/admin`) : [],
    adminResult: `${unit}/admin/result`,
    desired: [...s.groups.map((g) => `${s.prefix}/group/${g}/desired`), `${unit}/desired`],
    reported: `${unit}/reported`,
    screenshot: (displayId) => `${unit}/screenshot/${displayId}`,
  };
}

/** Every topic the unit takes commands from. */
export function commandTopics(t: Topics): string[] {
  return [t.cmd, ...t.groupCmds, t.allCmd, t.admin, ...t.groupAdmins];
}
