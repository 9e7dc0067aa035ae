import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/http/app.js';
import { baseConfig, get, serviceDir, start, until, type ServiceDir } from '../helpers/service.js';
import type { RunningService } from '../../src/main.js';

function areaText(svc: RunningService, area: string): string | undefined {
  return svc.controller().state('main').areas.get(area)?.text;
}

describe('GET /mlds (unknownAreaKeys = reject)', () => {
  let sd: ServiceDir;
  let svc: RunningService;
  before(async () => {
    sd = serviceDir(baseConfig());
    svc = await start(sd);
  });
  after(async () => {
    await svc.close();
    sd.cleanup();
  });

  test('an accepted request answers 200 {"result":"command received"} and shows the values', async () => {
    const r = await get(svc, '/mlds?id=main&layout=l1&title=Hello&sign=b&pic=bus&inumber=41');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { result: 'command received' });
    const st = svc.controller().state('main');
    assert.equal(st.layout, 'l1');
    assert.equal(areaText(svc, 'title'), 'Hello');
    assert.equal(areaText(svc, 'sign'), 'Beta');
    assert.match(st.areas.get('pic')!.file!, /images\/bus\.png$/);
    assert.equal(st.lastCommand?.inumber, '41');
  });

  test('UTF-8 values: Polish, German, Cyrillic, Greek', async () => {
    for (const text of ['Zażółć gęślą jaźń – Łódź', 'Größe Straße – Übergang', 'Москва – Курский вокзал', 'Αθήνα']) {
      const r = await get(svc, `/mlds?id=main&layout=l1&title=${encodeURIComponent(text)}`);
      assert.equal(r.status, 200, text);
      assert.equal(areaText(svc, 'title'), text);
    }
  });

  test('%26 is a literal ampersand inside a value, + is a space, %2B a plus', async () => {
    await get(svc, '/mlds?id=main&layout=l1&title=Tom%26Jerry+1%2B1');
    assert.equal(areaText(svc, 'title'), 'Tom&Jerry 1+1');
  });

  test('areas without a value show their defaultValue or blank; key= clears', async () => {
    await get(svc, '/mlds?id=main&layout=l1&title=X&sign=a');
    await get(svc, '/mlds?id=main&layout=l1&title=');
    const st = svc.controller().state('main');
    assert.equal(st.areas.get('title')!.source, 'none');
    assert.equal(st.areas.get('sign')!.source, 'default');
    assert.equal(areaText(svc, 'sign'), 'Def');
    assert.equal(st.areas.get('pic')!.source, 'none');
  });

  test('switching layout replaces the whole visual configuration', async () => {
    await get(svc, '/mlds?id=main&layout=l2&other=Only');
    const st = svc.controller().state('main');
    assert.deepEqual([...st.areas.keys()], ['other']);
    assert.equal(st.layout, 'l2');
  });

  test('fontColor[area] and fontSize[area] apply to text and static areas', async () => {
    const r = await get(svc, '/mlds?id=main&layout=l1&title=Hi&fontColor%5Btitle%5D=255_0_10&fontSize[sign]=12');
    assert.equal(r.status, 200);
    const st = svc.controller().state('main');
    assert.deepEqual(st.areas.get('title')!.fontColor, { r: 255, g: 0, b: 10 });
    assert.equal(st.areas.get('sign')!.fontSize, 12);
  });

  const faulty: Array<[string, string, string, string?]> = [
    ['missing id', '/mlds?layout=l1&title=x', 'MLDS_MISSING_ID', 'id'],
    ['empty id', '/mlds?id=&layout=l1', 'MLDS_MISSING_ID', 'id'],
    ['repeated id', '/mlds?id=main&id=main&layout=l1', 'MLDS_REPEATED_ID', 'id'],
    ['unknown id', '/mlds?id=nobody&layout=l1', 'MLDS_UNKNOWN_ID', 'id'],
    ['missing layout', '/mlds?id=main&title=x', 'MLDS_MISSING_LAYOUT', 'layout'],
    ['repeated layout', '/mlds?id=main&layout=l1&layout=l2', 'MLDS_REPEATED_LAYOUT', 'layout'],
    ['unknown layout', '/mlds?id=main&layout=nope', 'MLDS_UNKNOWN_LAYOUT', 'layout'],
    ['repeated area key', '/mlds?id=main&layout=l1&title=a&title=b', 'MLDS_REPEATED_AREA', 'title'],
    ['unknown area key', '/mlds?id=main&layout=l1&subtitle=x', 'MLDS_UNKNOWN_AREA', 'subtitle'],
    ['unknown static param key', '/mlds?id=main&layout=l1&sign=zzz', 'MLDS_UNKNOWN_PARAM_KEY', 'sign'],
    ['unknown image param key', '/mlds?id=main&layout=l1&pic=cat', 'MLDS_UNKNOWN_PARAM_KEY', 'pic'],
    ['params lookups are own keys only', '/mlds?id=main&layout=l1&pic=toString', 'MLDS_UNKNOWN_PARAM_KEY', 'pic'],
    [
      'malformed fontColor',
      '/mlds?id=main&layout=l1&fontColor[title]=255-0-0',
      'MLDS_BAD_OVERRIDE',
      'fontColor[title]',
    ],
    [
      'fontColor out of range',
      '/mlds?id=main&layout=l1&fontColor[title]=256_0_0',
      'MLDS_BAD_OVERRIDE',
      'fontColor[title]',
    ],
    [
      'fontColor on an image area',
      '/mlds?id=main&layout=l1&fontColor[pic]=1_2_3',
      'MLDS_BAD_OVERRIDE',
      'fontColor[pic]',
    ],
    [
      'fontSize above the area height',
      '/mlds?id=main&layout=l1&fontSize[title]=51',
      'MLDS_BAD_OVERRIDE',
      'fontSize[title]',
    ],
    [
      'fontSize for an unknown area',
      '/mlds?id=main&layout=l1&fontSize[ghost]=10',
      'MLDS_BAD_OVERRIDE',
      'fontSize[ghost]',
    ],
    ['bad percent-encoding', '/mlds?id=main&layout=l1&title=100%', 'MLDS_BAD_ENCODING', 'title'],
    ['invalid UTF-8', '/mlds?id=main&layout=l1&title=%C3%28', 'MLDS_BAD_ENCODING', 'title'],
    ['overlong UTF-8', '/mlds?id=main&layout=l1&title=%C0%AF', 'MLDS_BAD_ENCODING', 'title'],
  ];
  for (const [what, url, code, field] of faulty) {
    test(`faulty: ${what} -> 400 ${code}, nothing changes`, async () => {
      await get(svc, '/mlds?id=main&layout=l1&title=Before&sign=a');
      const before = svc.controller().state('main');
      const areasBefore = before.areas;
      const versionBefore = before.version;
      const r = await get(svc, url);
      assert.equal(r.status, 400);
      assert.equal(r.json.result, 'error');
      assert.equal(r.json.code, code);
      if (field) assert.equal(r.json.field, field);
      assert.equal(typeof r.json.message, 'string');
      const st = svc.controller().state('main');
      assert.equal(st.version, versionBefore);
      assert.equal(st.areas, areasBefore);
      assert.equal(st.layout, 'l1');
    });
  }

  test('/status says how pixels are read back: in place with the helper built against this node-canvas', async () => {
    const s = await get(svc, '/status');
    assert.deepEqual(s.json.readBack, { mode: 'in-place' });
  });

  test('a fault shows on /status and /info', async () => {
    await get(svc, '/mlds?id=main&layout=nope&inumber=9');
    const s = await get(svc, '/status');
    const d = (s.json.displays as Array<{ lastFault: { code: string } }>)[0];
    assert.equal(d.lastFault.code, 'MLDS_UNKNOWN_LAYOUT');
    const info = await get(svc, '/info');
    assert.match(info.text, /MLDS_UNKNOWN_LAYOUT/);
    await get(svc, '/mlds?id=ghost&layout=x');
    const info2 = await get(svc, '/info');
    assert.match(info2.text, /no display &quot;ghost&quot;/);
  });

  test('404 unknown path, 405 other methods, 406 Accept without JSON, HEAD works', async () => {
    const nf = await get(svc, '/nothing');
    assert.equal(nf.status, 404);
    assert.equal(nf.json.code, 'MLDS_NOT_FOUND');
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const r = await get(svc, '/mlds?id=main&layout=l1', { method });
      assert.equal(r.status, 405, method);
      assert.equal(r.headers.get('allow'), 'GET, HEAD');
      assert.equal(r.json.code, 'MLDS_METHOD_NOT_ALLOWED');
    }
    const na = await get(svc, '/status', { headers: { Accept: 'text/html' } });
    assert.equal(na.status, 406);
    assert.equal(na.json.code, 'MLDS_NOT_ACCEPTABLE');
    const ok = await get(svc, '/status', { headers: { Accept: 'text/html, */*;q=0.1' } });
    assert.equal(ok.status, 200);
    const head = await fetch(svc.url + '/status', { method: 'HEAD' });
    assert.equal(head.status, 200);
  });

  test(
    '/mlds answers through its shortcut as the router ' + 'answers /MLDS and /mlds/: status, type, body, Accept',
    async () => {
      const q = '?id=main&layout=l1&title=Same';
      let plainType: string | null = null;
      for (const accept of [
        undefined,
        '*/*',
        'application/json',
        'application/*',
        'text/html',
        'text/html, */*;q=0.1',
        'text/html;q=0.9, application/json;q=0',
      ]) {
        const init = accept === undefined ? {} : { headers: { Accept: accept } };
        const [short, ...routed] = await Promise.all(['/mlds', '/MLDS', '/mlds/'].map((p) => get(svc, p + q, init)));
        for (const r of routed) {
          assert.equal(short.status, r.status, `Accept ${accept}`);
          assert.equal(short.headers.get('content-type'), r.headers.get('content-type'));
          assert.equal(short.headers.get('content-length'), r.headers.get('content-length'));
          assert.deepEqual(short.json, r.json);
        }
        assert.equal(
          short.status,
          accept?.startsWith('text/html') && !accept.includes('*/*') ? 406 : 200,
          `Accept ${accept}`,
        );
        if (accept === undefined) plainType = short.headers.get('content-type');
      }
      assert.equal(plainType, 'application/json; charset=utf-8');
      const head = await fetch(`${svc.url}/mlds${q}`, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('content-length'), String(Buffer.byteLength('{"result":"command received"}')));
    },
  );

  test("the answer waits for the command's state journal line (ApplyResult.stored)", async () => {
    const ctl = svc.controller();
    const apply = ctl.apply;
    let release!: () => void;
    const stored = new Promise<void>((resolve) => {
      release = resolve;
    });
    ctl.apply = async (raw, source) => ({ ...(await apply.call(ctl, raw, source)), stored });
    try {
      let answered = false;
      const reply = get(svc, '/mlds?id=main&layout=l1&title=Stored').then((r) => {
        answered = true;
        return r;
      });
      await until(() => areaText(svc, 'title') === 'Stored', 3000, 'the command to be applied');
      // the passing of time is what is tested: no answer within 100 ms while the line is not stored.
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(answered, false, 'no answer before the line is stored');
      release();
      assert.equal((await reply).status, 200);
    } finally {
      ctl.apply = apply;
    }
  });
});

describe('GET /mlds (unknownAreaKeys = ignore)', () => {
  let sd: ServiceDir;
  let svc: RunningService;
  before(async () => {
    const c = baseConfig();
    c.unknownAreaKeys = 'ignore';
    sd = serviceDir(c);
    svc = await start(sd);
  });
  after(async () => {
    await svc.close();
    sd.cleanup();
  });

  test('unknown keys are accepted, listed in the response and on /info', async () => {
    const r = await get(svc, '/mlds?id=main&layout=l1&title=Yes&colour=red&extra=1');
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { result: 'command received', ignored: ['colour', 'extra'] });
    assert.equal(areaText(svc, 'title'), 'Yes');
    const info = await get(svc, '/info');
    assert.match(info.text, /Ignored keys.*<code>colour<\/code>, <code>extra<\/code>/s);
  });

  test('everything else is still checked', async () => {
    const r = await get(svc, '/mlds?id=main&layout=l1&sign=zzz&colour=red');
    assert.equal(r.status, 400);
    assert.equal(r.json.code, 'MLDS_UNKNOWN_PARAM_KEY');
  });
});

describe('429 and 503', () => {
  test('more than rateLimit requests in one second from one client get 429', async () => {
    const c = baseConfig();
    c.rateLimit = '5';
    const sd = serviceDir(c);
    const svc = await start(sd);
    try {
      const codes: number[] = [];
      for (let i = 0; i < 12; i++) codes.push((await get(svc, '/status')).status);
      assert.ok(codes.includes(429), `no 429 in ${codes.join(',')}`);
      assert.ok(codes.filter((x) => x === 200).length >= 5, `fewer than 5 accepted: ${codes.join(',')}`);
    } finally {
      await svc.close();
      sd.cleanup();
    }
  });

  test('while the service is not ready every endpoint answers 503 with Retry-After', async () => {
    const sd = serviceDir(baseConfig());
    const svc = await start(sd);
    let ready = false;
    const app = createApp({ ...svc.api, ready: () => ready }, { info() {}, warn() {}, error() {} });
    const server = createServer(app.listener).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const r = await get({ url }, '/mlds?id=main&layout=l1');
      assert.equal(r.status, 503);
      assert.equal(r.json.code, 'MLDS_UNAVAILABLE');
      assert.equal(r.headers.get('retry-after'), '1');
      ready = true;
      assert.equal((await get({ url }, '/mlds?id=main&layout=l1')).status, 200);
    } finally {
      server.close();
      await svc.close();
      sd.cleanup();
    }
  });
});
