// An MQTT announcement (`{"id","announce","priority"}`, docs/fleet.md) handed to the speech
// component, and the confirmation it earns: 1 queued, 0 not now (quiet hours, a full queue),
// 2 never (no speech on this unit, words the speaker refuses, an unknown display).
import type { RuntimeContext } from '../capability/component-contract.js';
import { SPEECH, type NotQueued, type ReadoutRefused } from '../capability/speaker.js';
import type { ErrorCode } from '../errors.js';
import type { Confirmation } from './recent.js';

const REFUSED: Record<NotQueued, [0 | 2, ErrorCode, string]> = {
  empty: [2, 'MLDS_BAD_ANNOUNCEMENT', 'nothing is left to say in "announce"'],
  'too-long': [2, 'MLDS_BAD_ANNOUNCEMENT', '"announce" must be at most 500 characters'],
  'unknown-display': [2, 'MLDS_UNKNOWN_ID', 'no such display in the configuration'],
  quiet: [0, 'MLDS_SPEECH_QUIET', 'quiet hours: only priority announcements are spoken now'],
  full: [0, 'MLDS_SPEECH_FULL', 'the announcement queue is full of priority announcements'],
};

export function announcementConfirmation(
  ctx: RuntimeContext,
  id: string,
  inumber: string | undefined,
  a: { text: string; priority: boolean },
): Confirmation {
  const base = { inumber: inumber ?? null, id };
  const speaker = ctx.component(SPEECH);
  if (!speaker)
    return { ...base, confirm: 2, code: 'MLDS_SPEECH_OFF', message: 'speech is not configured on this unit' };
  const r = speaker.announce({ displayId: id, text: a.text, priority: a.priority, source: 'mqtt' });
  if (r.queued) return { ...base, confirm: 1, code: null, message: `queued for speech at position ${r.position}` };
  const [confirm, code, message] = REFUSED[r.reason];
  return { ...base, confirm, code, message };
}

const READOUT_REFUSED: Record<ReadoutRefused, [0 | 2, ErrorCode, string]> = {
  'unknown-display': [2, 'MLDS_UNKNOWN_ID', 'no such display in the configuration'],
  'no-readout': [2, 'MLDS_NO_READOUT', 'this display has no "readout" in the configuration'],
  empty: [0, 'MLDS_NOTHING_TO_READ', 'the display shows nothing with words now'],
  full: [0, 'MLDS_SPEECH_FULL', "the announcement queue is full of alerts' warnings"],
};

/** An MQTT readout (`{"id","readout":true}`): 1 queued, 0 not now, 2 never. */
export function readoutConfirmation(ctx: RuntimeContext, id: string, inumber: string | undefined): Confirmation {
  const base = { inumber: inumber ?? null, id };
  const speaker = ctx.component(SPEECH);
  if (!speaker)
    return { ...base, confirm: 2, code: 'MLDS_SPEECH_OFF', message: 'speech is not configured on this unit' };
  const r = speaker.readout(id);
  if (r.queued)
    return {
      ...base,
      confirm: 1,
      code: null,
      message: r.restarted ? 'the readout starts again' : `readout queued at position ${r.position}`,
    };
  const [confirm, code, message] = READOUT_REFUSED[r.reason];
  return { ...base, confirm, code, message };
}
