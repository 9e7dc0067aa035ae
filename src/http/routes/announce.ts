// GET /announce?id=<display>&text=<words>[&priority=1]: an announcement read aloud on the
// display's audio device (docs/speech.md). API key level, like /mlds. HEAD checks and says nothing.
import type { Routes } from '../access.js';
import { SPEECH, type NotQueued } from '../../capability/speaker.js';
import { MldsError, type ErrorCode } from '../../errors.js';
import type { ServiceApi } from '../api.js';
import { json, sendJson } from '../middleware.js';
import { displayIdOf, once } from '../query-params.js';

/** Characters an announcement's text may have (docs/speech.md). */
export const ANNOUNCE_MAX = 500;

const REFUSED: Record<NotQueued, [ErrorCode, string, string]> = {
  empty: ['MLDS_BAD_ANNOUNCEMENT', 'nothing is left to say in "text"', 'text'],
  'too-long': ['MLDS_BAD_ANNOUNCEMENT', `"text" must be at most ${ANNOUNCE_MAX} characters`, 'text'],
  'unknown-display': ['MLDS_UNKNOWN_ID', 'no such display in the configuration', 'id'],
  quiet: ['MLDS_SPEECH_QUIET', 'quiet hours: only priority announcements are spoken now', 'priority'],
  full: ['MLDS_SPEECH_FULL', 'the announcement queue is full of priority announcements', 'text'],
};

export function announceRoutes(routes: Routes, api: ServiceApi): void {
  routes.get('/announce', 'api', json(), async (ctx) => {
    const id = displayIdOf(ctx, api.config());
    const speaker = api.component(SPEECH);
    if (!speaker)
      throw new MldsError(
        'MLDS_SPEECH_OFF',
        'speech is not configured on this unit (no "speech" section in config.json)',
        'speech',
      );
    const text = once(ctx, 'text') ?? '';
    if (text.trim() === '')
      throw new MldsError('MLDS_BAD_ANNOUNCEMENT', '"text" is required and must not be empty', 'text');
    if (text.length > ANNOUNCE_MAX)
      throw new MldsError(
        'MLDS_BAD_ANNOUNCEMENT',
        `"text" must be at most ${ANNOUNCE_MAX} characters (it has ${text.length})`,
        'text',
      );
    const p = once(ctx, 'priority') ?? '0';
    if (p !== '0' && p !== '1') throw new MldsError('MLDS_BAD_ANNOUNCEMENT', '"priority" must be 0 or 1', 'priority');
    ctx.set('Cache-Control', 'no-store');
    if (ctx.method === 'HEAD') return void sendJson(ctx, { result: 'not announced (HEAD)', id });
    const r = speaker.announce({ displayId: id, text, priority: p === '1', source: 'http' });
    if (!r.queued) {
      const [code, message, field] = REFUSED[r.reason];
      throw new MldsError(code, message, field);
    }
    sendJson(ctx, { result: 'queued', id, position: r.position });
  });
}
