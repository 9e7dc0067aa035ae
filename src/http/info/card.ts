// One display's card on /info: its live picture, what its output is doing, and what it shows.
import { esc, readableQuery, row, text, when, type Obj } from './format.js';

/** Colorlight receiving cards found by discovery: what a technician checks first on site. */
function receivers(out: Obj): string {
  const list = ((out.details as Obj | undefined)?.receivers as Obj[] | undefined) ?? [];
  return list
    .map((r, i) =>
      row(
        `Receiver ${i + 1}`,
        text(
          Object.entries(r)
            .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
            .join(', '),
        ),
      ),
    )
    .join('');
}

function output(out: Obj, zone: string): string {
  const failures = out.consecutiveFailures ? `, ${esc(out.consecutiveFailures)} failures in a row` : '';
  const state = `${esc(out.driver ?? '?')}: ${esc(out.lastResult ?? 'nothing sent yet')}${failures}`;
  return (
    row('Output', state, out.lastResult === 'error' ? 'bad' : '') +
    (out.lastError ? row('Output error', text(out.lastError), 'bad') : '') +
    // "output not open: <error>" repeats the error row above.
    ((out.warnings as string[] | undefined) ?? [])
      .filter((w) => !out.lastError || !w.endsWith(String(out.lastError)))
      .map((w) => row('Output warning', text(w), 'bad'))
      .join('') +
    (out.nextRetryAt ? row('Next retry', when(out.nextRetryAt, zone)) : '') +
    receivers(out)
  );
}

/**
 * Frames come from the unit: displays sharing one unit show the same figures, and say so.
 * `missed` and `dropped` are what a technician looks at when a scroll stutters.
 */
function frames(d: Obj, out: Obj, sharedWith: string[], zone: string): string {
  const loop = (d.frames ?? {}) as Obj;
  const n = (v: unknown) => (typeof v === 'number' ? v.toLocaleString('en-US') : '?');
  const shared = sharedWith.length
    ? `<div class="note">shared with ${esc(sharedWith.join(', '))} (one unit)</div>`
    : '';
  const failed = out.lastResult === 'error';
  return (
    row(
      'Last frame',
      out.lastSendAt
        ? `${when(out.lastSendAt, zone)}${failed ? ', <span class="bad">not sent</span>' : ', sent'}`
        : undefined,
    ) +
    row(
      'Frames',
      `<span class="when">sent <b>${n(out.framesSent)}</b>,</span> <span class="when">missed ` +
        `<b${Number(loop.missed) ? ' class="bad"' : ''}>${n(loop.missed)}</b>,</span> <span class="when">dropped ` +
        `<b>${n(loop.dropped)}</b></span>` +
        '<div class="note">missed: frames the loop could not draw on time; dropped: frames replaced before a ' +
        'slow output took them</div>' +
        shared,
    ) +
    (loop.lastError ? row('Drawing error', text(loop.lastError), 'bad') : '')
  );
}

/** A text area's fit and the characters no font has. */
function textFit(a: Obj): string {
  const fit = a.fit === undefined ? '' : `<div class="note">fit ${esc(a.fit)} at ${esc(a.fontSizeUsed)} px</div>`;
  const missing =
    Array.isArray(a.missingGlyphs) && a.missingGlyphs.length
      ? `<div class="bad">no font has ${text(a.missingGlyphs.join(' '))} (drawn as gaps)</div>`
      : '';
  const clipped = a.clippedPx
    ? `<div class="bad">a line ${esc(a.clippedPx)} px wider than the area is cut (turn on wrap)</div>`
    : '';
  return fit + missing + clipped;
}

function areas(d: Obj): string {
  const rows = ((d.areas as Obj[] | undefined) ?? [])
    .map((a) => {
      const showing = a.text ?? a.file ?? a.url;
      const ttl = a.ttlLeftSeconds === null || a.ttlLeftSeconds === undefined ? '' : esc(`${a.ttlLeftSeconds} s`);
      const value =
        showing === undefined || showing === ''
          ? `<span class="dim">${a.source === 'none' ? 'blank' : 'nothing'}</span>`
          : text(showing);
      return (
        `<tr data-area="${esc(a.id)}"><td class="key">${esc(a.id)}<div class="note">${esc(a.type)}</div></td>` +
        `<td>${value}${a.fault ? `<div class="bad">${text(a.fault)}</div>` : ''}${textFit(a)}</td>` +
        `<td class="num">${ttl}</td></tr>`
      );
    })
    .join('');
  return rows
    ? `<table class="areas"><thead><tr><th>Area</th><th>Showing</th><th ` +
        `class="num">ttl</th></tr></thead><tbody>${rows}</tbody></table>`
    : '';
}

/** Priority levels, shown once a message above 0 holds (or held) the display. */
function levels(d: Obj, zone: string): string {
  const list = (d.layers as Obj[] | undefined) ?? [];
  if (!list.some((l) => Number(l.priority) > 0)) return '';
  return row(
    'Priority levels',
    list
      .map((l, i) => {
        const until = l.expiresAt ? `, until ${when(l.expiresAt, zone)}` : '';
        const held =
          `from ${esc(l.source)}, since ` + `${when(l.since, zone)}${until}${i === 0 ? ', on show' : ', underneath'}`;
        const level = `<b>${esc(l.priority)}</b> ${esc(l.layout)}`;
        return `<div data-priority="${esc(l.priority)}">${level} <span class="note">${held}</span></div>`;
      })
      .join(''),
  );
}

export function displayCard(d: Obj, zone: string, sharedWith: string[]): string {
  const out = (d.output ?? {}) as Obj;
  const cmd = d.lastCommand as Obj | null;
  const fault = d.lastFault as Obj | null;
  const id = esc(d.id);
  const w = Number(d.width),
    h = Number(d.height);
  const ignored = (d.ignoredKeys as string[] | undefined) ?? [];
  const main = d.main ? ' <span class="tag">MAIN</span>' : '';
  const picture = `/screenshot?stream=1&amp;id=${esc(encodeURIComponent(String(d.id)))}`;
  const layoutSince = d.layoutSince ? ` <span class="note">since ${when(d.layoutSince, zone)}</span>` : '';
  const lastFault = fault
    ? `<div>${when(fault.at, zone)}</div><code>${esc(fault.code)}</code>: ${text(fault.message)}`
    : undefined;
  return `<section class="card display" data-id="${id}" data-size="${w}x${h}">
<div class="head"><h2>${id}${main} <small>${esc(d.name ?? '')}</small></h2></div>
<img class="live" alt="live picture of ${id}" width="${w}" height="${h}" src="${picture}">
<div class="body">
<table class="kv"><tbody>
${row('Resolution', esc(d.resolution))}
${row('Controller', esc(d.controllerType))}
${output(out, zone)}
${frames(d, out, sharedWith, zone)}
${row('Layout', d.layout ? `${esc(d.layout)}${layoutSince}` : undefined)}
${row('Last command', cmd ? `<div>${when(cmd.at, zone)}</div>${readableQuery(cmd.query)}` : undefined)}
${row('Last fault', lastFault, fault ? 'bad' : '')}
${ignored.length ? row('Ignored keys', ignored.map((k) => `<code>${esc(k)}</code>`).join(', ')) : ''}
${levels(d, zone)}
</tbody></table>
${areas(d)}
</div>
</section>`;
}
