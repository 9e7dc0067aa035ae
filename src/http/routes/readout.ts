// GET /readout?id=<display>: what the display shows now, read aloud (docs/speech.md, Readout on
// demand). API key level, like /announce. HEAD checks and says nothing.
import type { Routes } from '../access.js';
import { SPEECH, type ReadoutRefused } from '../../capability/speaker.js';
import { MldsError, type ErrorCode } from '../../errors.js';
import type { ServiceApi } from '../api.js';
import { json, sendJson } from '../middleware.js';
import { displayIdOf } from '../query-params.js';

const REFUSED: Record<ReadoutRefused, [ErrorCode, string]> = {
  'unknown-display': ['MLDS_UNKNOWN_ID', 'no such display in the configuration'],
  'no-readout': ['MLDS_NO_READOUT', 'this display has no "readout" in the configuration'],
  empty: ['MLDS_NOTHING_TO_READ', 'the display shows nothing with words now'],
  full: ['MLDS_SPEECH_FULL', "the announcement queue is full of alerts' warnings"],
};

export function readoutRoutes(routes: Routes, api: ServiceApi): void {
  routes.get('/readout', 'api', json(), async (ctx) => {
    const id = displayIdOf(ctx, api.config());
    const speaker = api.component(SPEECH);
    if (!speaker) {
      const why = 'speech is not configured on this unit (no "speech" section in config.json)';
      throw new MldsError('MLDS_SPEECH_OFF', why, 'speech');
    }
    if (!api.config().displayById.get(id)?.readout) {
      throw new MldsError('MLDS_NO_READOUT', REFUSED['no-readout'][1], 'id');
    }
    ctx.set('Cache-Control', 'no-store');
    if (ctx.method === 'HEAD') return void sendJson(ctx, { result: 'not read (HEAD)', id });
    const r = speaker.readout(id);
    if (!r.queued) {
      const [code, message] = REFUSED[r.reason];
      throw new MldsError(code, message, 'id');
    }
    sendJson(ctx, { result: 'queued', id, position: r.position, restarted: r.restarted });
  });
}
