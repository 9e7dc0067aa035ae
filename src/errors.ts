// Every error the service reports has one code, one HTTP status and one documented meaning
// (after fastify's error table). docs/http-api.md lists them all; a test checks that.

export const ERRORS = {
  MLDS_BAD_ENCODING: { status: 400, doc: 'A query name or value has invalid percent-encoding or is not valid UTF-8.' },
  MLDS_MISSING_ID: { status: 400, doc: '`id` is missing or empty.' },
  MLDS_REPEATED_ID: { status: 400, doc: '`id` appears more than once; send one request per display.' },
  MLDS_UNKNOWN_ID: { status: 400, doc: '`id` names no display in the configuration.' },
  MLDS_MISSING_LAYOUT: { status: 400, doc: '`layout` is missing or empty.' },
  MLDS_REPEATED_LAYOUT: { status: 400, doc: '`layout` appears more than once.' },
  MLDS_UNKNOWN_LAYOUT: { status: 400, doc: '`layout` names no layout of that display.' },
  MLDS_REPEATED_AREA: { status: 400, doc: 'An area key (or an override of one area) appears more than once.' },
  MLDS_UNKNOWN_AREA: {
    status: 400,
    doc: 'An area key is not an area of the layout (with `unknownAreaKeys` = reject).',
  },
  MLDS_UNKNOWN_PARAM_KEY: {
    status: 400,
    doc: 'The value of a static, image, video, audio or web area is not a key of its `params`.',
  },
  MLDS_BAD_OVERRIDE: {
    status: 400,
    doc:
      'A `fontColor[area]` or `fontSize[area]` override is malformed, names an unknown area, targets an area ' +
      'type that has no font, or gives a bitmap font a size other than its pixel size or a whole multiple.',
  },
  MLDS_BAD_VALUE: {
    status: 400,
    doc:
      'An area value is not acceptable for its area type (too long, a tab in an area without columns, a value ' +
      'for a date or departures area, or a MULTI tag outside the subset or malformed: the message names the ' +
      'area, the tag and its position; a MULTI page that does not fit its area: the message names the area and ' +
      'the page).',
  },
  MLDS_BAD_CONTROL_OPTION: {
    status: 400,
    doc:
      '`keep`, `priority` or `expires` is malformed, repeated or out of range; `expires` is missing with a ' +
      'priority above 0 or given with priority 0; or a clear (`priority=<p>&layout=`) names an area.',
  },
  MLDS_BAD_REQUEST: {
    status: 400,
    doc:
      'The HTTP parser refused the request before it reached the service: a malformed request line or header, ' +
      'or an HTTP/1.1 request without a Host header. The connection is closed.',
  },
  MLDS_BAD_PARAMETER: { status: 400, doc: 'A query parameter of a non-control endpoint is missing or malformed.' },
  MLDS_CONFIG_INVALID: {
    status: 400,
    doc:
      'A configuration offered by reload_config or load_config has faults; the running one stays. The body ' +
      'lists the faults with their JSON paths: the first 100, then one counting the rest.',
  },
  MLDS_NOT_SINGLE_DISPLAY: {
    status: 400,
    doc: '`/setethernetconfig` is refused because the configuration defines more or fewer than exactly one display id.',
  },
  MLDS_BAD_BRIGHTNESS: { status: 400, doc: '`/brightness/<value>`: the value is missing or not an integer 1..100.' },
  MLDS_NOT_UNIT_MAIN: {
    status: 400,
    doc:
      "`/brightness`: `id` names a display that is not the MAIN display of its physical unit (the unit's " +
      'first id in config.json); brightness is set per unit through its MAIN id.',
  },
  MLDS_BRIGHTNESS_DISABLED: {
    status: 400,
    doc:
      '`/brightness`: the MAIN display named by `id` has `sensorBrightness` false, or (without `id`) no ' +
      "unit's MAIN display has it true; such brightness follows the schedule or `brightnessUrl`.",
  },
  MLDS_UNAUTHORIZED: {
    status: 401,
    doc: '`security.apiKey` is set and the `key` query value or `X-API-Key` header is missing or wrong.',
  },
  MLDS_FORBIDDEN: {
    status: 403,
    doc:
      '`security.adminKey` is set and an admin endpoint was called without it, or an MQTT admin command came ' +
      'without it as `adminKey`.',
  },
  MLDS_NOT_FOUND: { status: 404, doc: 'No such path.' },
  MLDS_METHOD_NOT_ALLOWED: { status: 405, doc: 'Only GET and HEAD are served (CONNECT included).' },
  MLDS_NOT_ACCEPTABLE: { status: 406, doc: 'The `Accept` header excludes JSON on a JSON endpoint.' },
  MLDS_REQUEST_TIMEOUT: {
    status: 408,
    doc: "The request line and headers did not arrive within the server's time limit. The connection is closed.",
  },
  MLDS_RATE_LIMITED: { status: 429, doc: 'More than `rateLimit` requests per second from one client.' },
  MLDS_HEADERS_TOO_LARGE: {
    status: 431,
    doc:
      'The request line and headers together exceed `limits.maxHeaderBytes` (16 KiB by default). The ' +
      'connection is closed.',
  },
  MLDS_URL_TOO_LONG: { status: 414, doc: 'The request URL is longer than `limits.maxUrlBytes` (12 KiB by default).' },
  MLDS_TOO_MANY_CONNECTIONS: {
    status: 429,
    doc:
      'One client address holds more than `limits.maxConnectionsPerClient` open connections (256 by default); ' +
      'the new one is answered and closed.',
  },
  MLDS_INTERNAL: { status: 500, doc: 'A defect in the service; the log has the stack trace.' },
  MLDS_NETWORK_BUSY: {
    status: 503,
    doc: 'A network change is still being applied or watched for rollback; retry after `Retry-After` seconds.',
  },
  MLDS_NETWORK_UNAVAILABLE: {
    status: 503,
    doc:
      'The unit cannot read or change its network configuration: no such interface, `ip` missing, or the ' +
      'systemd-networkd folder missing or not writable. Nothing was changed.',
  },
  MLDS_TOO_MANY_STREAMS: {
    status: 503,
    doc:
      '`/screenshot?stream=1`: `limits.maxStreams` live views are already open (they leave the rest of ' +
      '`maxConnections` to control messages); retry after `Retry-After` seconds.',
  },
  MLDS_STATE_UNWRITABLE: {
    status: 503,
    doc:
      'A control message (HTTP, MQTT, cron or poller) cannot be made durable: the state folder cannot be ' +
      'written (disk full, read-only). Nothing changed, confirmed with 0; /status names the problem; retry after ' +
      '`Retry-After` seconds.',
  },
  MLDS_UNAVAILABLE: {
    status: 503,
    doc:
      'The service is starting, or a configuration swap is in progress, or (`/screenshot`) the display has no ' +
      'frame yet or four screenshots are already waiting to be encoded; retry after `Retry-After` seconds. Also ' +
      '`/update` and the MQTT `update` command on a system without RAUC (no `/etc/rauc/system.conf`, or its ' +
      'D-Bus service does not answer).',
  },
  // Commands from an MQTT broker (src/fleet): the code of a confirmation on `<prefix>/<unit>/confirm`.
  MLDS_MQTT_PAYLOAD: {
    status: 400,
    doc:
      'MQTT: a command or admin payload is not a /mlds query string or a JSON object of the documented fields ' +
      '(not UTF-8, not JSON, a field of the wrong type, an admin command on a command topic, an unknown admin ' +
      'command). Confirmed with 2.',
  },
  MLDS_MQTT_TOO_LARGE: {
    status: 413,
    doc: 'MQTT: a payload over 64 KB, refused before it is decoded. Confirmed with 2.',
  },
  MLDS_MQTT_STALE: {
    status: 400,
    doc:
      'MQTT: a command whose `ts` is more than 60 s old is not acted on (a queue released after an outage). ' +
      'Confirmed with 0.',
  },
  MLDS_BUSY: {
    status: 503,
    doc:
      'MQTT: a command beyond what the unit takes: more than `rateLimit` a second on its topic, or more than ' +
      '1,000 commands (8 MB) waiting for the control path. Not applied; confirmed with 0, counted in ' +
      '`components.fleet.commands.shed`; send it again later. An admin command beyond 20 a second or 10 waiting ' +
      'to run: not run, answered on `admin/result`, counted in `components.fleet.admin.shed`.',
  },
  // URLs the service fetches and configuration archives (load_config, pollers, brightnessUrl, completeUrls).
  MLDS_BAD_URL: {
    status: 400,
    doc:
      'A URL the service was asked to fetch is not http/https, carries a user name or password, or names a ' +
      'port outside the allowed range (1025..65535 unless `urlPortRange` widens it).',
  },
  MLDS_URL_REFUSED: {
    status: 400,
    doc:
      'A URL the service was to fetch, a redirect or a link read from a fetched document leads where the ' +
      "rules on fetching forbid; the message names the rule: `own-api` (the unit's own HTTP or HTTPS port, on " +
      'any of its addresses), `public-to-private` (a loopback, private, link-local, unique-local or other ' +
      'non-public address reached after a public one served the fetch), `other-host` (a link read from a ' +
      'document leads to another host than the one that served it, and `fetch.allowHosts` does not list that ' +
      'host). Checked on the addresses the name resolves to, at every step.',
  },
  MLDS_BAD_ARCHIVE: {
    status: 400,
    doc:
      'A configuration archive is refused before anything is extracted: not a zip, malformed, an unsafe or ' +
      'duplicate entry name, a link or device entry, too many entries, too large once uncompressed, compressed ' +
      'suspiciously well, or no `config.json` at its root. The message names the entry.',
  },
  MLDS_DIGEST_MISMATCH: {
    status: 400,
    doc:
      'A downloaded configuration archive or update bundle does not have the SHA-256 digest the command gave ' +
      '(`sha256`, 64 hex digits); nothing was changed.',
  },
  MLDS_FETCH_FAILED: {
    status: 502,
    doc:
      'A URL could not be fetched: refused, unknown host, TLS failure, an HTTP status other than 2xx, more ' +
      'than 3 redirects, or a redirect to a URL that breaks the URL rules.',
  },
  MLDS_FETCH_TOO_LARGE: {
    status: 502,
    doc:
      'A fetched body is larger than its limit (20 MB for a configuration archive); the download stops as ' +
      'soon as the limit is passed.',
  },
  MLDS_FETCH_TIMEOUT: {
    status: 504,
    doc:
      'A fetch (connection, redirects and body together) took longer than its time limit (30 s for a ' +
      'configuration archive).',
  },
  // Announcements read aloud (src/speech, docs/speech.md).
  MLDS_BAD_ANNOUNCEMENT: {
    status: 400,
    doc:
      '`/announce` or an MQTT `announce`: the text is empty (nothing left to say once markup is removed), ' +
      'longer than 500 characters, or `priority` is not 0 or 1. The message names the field.',
  },
  MLDS_SPEECH_OFF: {
    status: 409,
    doc: '`/announce` or an MQTT `announce` on a unit whose configuration has no `speech` section: nothing is spoken.',
  },
  MLDS_SPEECH_QUIET: {
    status: 409,
    doc:
      'An ordinary (not priority) announcement during `speech.quietHours`: not spoken, counted in ' +
      '`components.speech.counts.refusedQuiet`.',
  },
  MLDS_SPEECH_FULL: {
    status: 503,
    doc:
      'The announcement queue holds 10 priority announcements, so a new one is refused (while it holds an ' +
      'ordinary one, that one is dropped to make room instead); retry after `Retry-After` seconds.',
  },
  MLDS_NO_READOUT: {
    status: 409,
    doc: '`/readout` or an MQTT `readout` for a display without `readout` in its configuration: nothing is read.',
  },
  MLDS_NOTHING_TO_READ: {
    status: 409,
    doc:
      '`/readout` or an MQTT `readout` while the display shows nothing with words (no layout yet, or only ' +
      'pictures, video or clocks).',
  },
  // Software updates through RAUC (src/update, docs/fleet.md).
  MLDS_UPDATE_BUSY: {
    status: 409,
    doc:
      '`/update` or the MQTT `update` command while another update is downloading, installing or rebooting ' +
      '(or RAUC is busy with another operation): nothing was started.',
  },
  MLDS_UPDATE_FAILED: {
    status: 502,
    doc:
      "RAUC refused the update bundle or failed installing it (the message is RAUC's LastError: signature, " +
      'compatible, a write error), or refused to mark a slot; the booted slot is unchanged and still boots.',
  },
} as const;

export type ErrorCode = keyof typeof ERRORS;

/** An error meant for the client: `expose` says its message may be shown as-is (koa convention). */
export class MldsError extends Error {
  readonly status: number;
  readonly expose = true;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'MldsError';
    this.status = ERRORS[code].status;
  }
}
