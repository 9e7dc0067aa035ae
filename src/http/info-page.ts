// The technician's page: the same facts as /status, readable on a phone, with a live picture
// of every display. Server-rendered so it works with no build step and no external assets.

type Obj = Record<string, unknown>;

const esc = (v: unknown): string =>
  String(v ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

/** A stored query as a person reads it: `destination=Dworzec Gdański`, not `%C5%84`. */
function readable(query: string): string {
  return query.split('&').map((p) => { try { return decodeURIComponent(p); } catch { return p; } }).join(' & ');
}

function row(label: string, value: unknown, cls = ''): string {
  return `<tr><th>${esc(label)}</th><td class="${cls}">${value === undefined || value === null || value === '' ? '<span class="dim">none</span>' : esc(value)}</td></tr>`;
}

/** Colorlight receiving cards found by discovery: what a technician checks first on site. */
function receivers(out: Obj): string {
  const list = ((out.details as Obj | undefined)?.receivers as Obj[] | undefined) ?? [];
  return list.map((r, i) => row(`Receiver ${i + 1}`, Object.entries(r).map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(', '))).join('');
}

function displayCard(d: Obj, keyQuery: string): string {
  const out = (d.output ?? {}) as Obj;
  const cmd = d.lastCommand as Obj | null;
  const fault = d.lastFault as Obj | null;
  const areas = (d.areas as Obj[]).map((a) =>
    `<tr><td>${esc(a.id)}</td><td>${esc(a.type)}</td><td>${esc(a.text ?? a.file ?? a.url ?? (a.source === 'none' ? '(blank)' : ''))}${a.fault ? `<div class="bad">${esc(a.fault)}</div>` : ''}</td><td>${a.ttlLeftSeconds === null ? '' : esc(a.ttlLeftSeconds + ' s')}</td></tr>`).join('');
  const id = encodeURIComponent(String(d.id));
  const w = Number(d.width), h = Number(d.height);
  return `<section class="card">
<h2>${esc(d.id)}${d.main ? ' <span class="tag">MAIN</span>' : ''} <small>${esc(d.name ?? '')}</small></h2>
<img class="live" alt="live picture of ${esc(d.id)}" width="${w}" height="${h}" style="aspect-ratio:${w}/${h}" src="/screenshot?stream=1&id=${id}${keyQuery}" data-id="${id}">
<table>
${row('Resolution', d.resolution)}
${row('Controller', d.controllerType)}
${row('Output', `${out.driver ?? '?'}: ${out.lastResult ?? 'nothing sent yet'}${out.consecutiveFailures ? `, ${out.consecutiveFailures} failures in a row` : ''}`, out.lastResult === 'error' ? 'bad' : '')}
${out.lastError ? row('Output error', out.lastError, 'bad') : ''}
${((out.warnings as string[] | undefined) ?? []).map((w) => row('Output warning', w, 'bad')).join('')}
${out.nextRetryAt ? row('Next retry', out.nextRetryAt) : ''}
${receivers(out)}
${row('Layout', d.layout)}
${row('Last command', cmd ? `${cmd.at}  ${readable(String(cmd.query))}${cmd.inumber ? `  (inumber ${cmd.inumber})` : ''}` : undefined)}
${row('Last fault', fault ? `${fault.at}  ${fault.code}: ${fault.message}` : undefined, fault ? 'bad' : '')}
${(d.ignoredKeys as string[]).length ? row('Ignored keys', (d.ignoredKeys as string[]).join(', ')) : ''}
</table>
${areas ? `<table class="areas"><tr><th>Area</th><th>Type</th><th>Showing</th><th>ttl</th></tr>${areas}</table>` : ''}
</section>`;
}

export function renderInfoPage(status: Obj, key?: string): string {
  const cfg = status.config as Obj;
  const faults = (cfg.faults as Array<{ path: string; message: string }> | undefined) ?? [];
  const keyQuery = key ? `&key=${encodeURIComponent(key)}` : '';
  const recent = (status.recentFaults as Obj[]).map((f) => `<li>${esc(f.at)} ${esc(f.code)}: ${esc(f.message)}</li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>mlds ${esc(status.version)} status</title>
<style>
body{font:15px/1.4 system-ui,sans-serif;margin:0;padding:12px;background:#f4f4f4;color:#111}
h1{font-size:20px;margin:0 0 8px}h2{font-size:17px;margin:0 0 8px}small{color:#666;font-weight:normal}
.card{background:#fff;border-radius:8px;padding:12px;margin:0 0 12px;box-shadow:0 1px 3px #0002}
.live{display:block;max-width:100%;height:auto;background:#000;image-rendering:pixelated;margin:0 0 8px}
table{border-collapse:collapse;width:100%}th,td{text-align:left;vertical-align:top;padding:3px 6px;border-bottom:1px solid #eee;overflow-wrap:anywhere}
th{white-space:nowrap;color:#444;font-weight:600}.bad{color:#b00020}.ok{color:#0a7a0a}.dim{color:#999}
.tag{background:#003f7f;color:#fff;border-radius:4px;padding:0 5px;font-size:12px}
</style></head><body>
<h1>mlds ${esc(status.version)}</h1>
<section class="card" id="facts"><table>
${row('System time', status.time)}
${row('Time zone', status.timezone)}
${row('Uptime', `${status.uptimeSeconds} s`)}
${row('Configuration', cfg.status === 'ok' ? `ok, loaded ${cfg.loadedAt}` : cfg.message, cfg.status === 'ok' ? 'ok' : 'bad')}
</table>
${faults.length ? `<ul class="bad">${faults.map((f) => `<li><code>${esc(f.path || '/')}</code>: ${esc(f.message)}</li>`).join('')}</ul>` : ''}
${recent ? `<h2>Faulty commands for unknown displays</h2><ul class="bad">${recent}</ul>` : ''}
</section>
${(status.displays as Obj[]).map((d) => displayCard(d, keyQuery)).join('\n')}
<script>
// Each picture is a live MJPEG stream; when it ends (restart, configuration swap) it is
// opened again after 2 s.
for (const img of document.querySelectorAll('img.live')) {
  const base = img.src.replace(/&t=\\d+$/, '');
  img.addEventListener('error', () => setTimeout(() => { img.src = base + '&t=' + Date.now(); }, 2000));
}
// The facts refresh every 5 s without reloading the pictures.
setInterval(async () => {
  try {
    const html = await (await fetch(location.href, { cache: 'no-store' })).text();
    const doc = new DOMParser().parseFromString(html, 'text/html');
    document.getElementById('facts').replaceWith(doc.getElementById('facts'));
    document.querySelectorAll('section.card table').forEach((t, i) => {
      const fresh = doc.querySelectorAll('section.card table')[i];
      if (fresh && t.closest('#facts') === null) t.replaceWith(fresh);
    });
  } catch {}
}, 5000);
</script>
</body></html>`;
}
