// The /info page's style and script, inline so the page needs no other request and no build step.

// Values wrap between words and break inside one only when it cannot fit a line on its own
// (a long URL); labels, area names and codes never break. Tables are grids so a long value
// narrows its own column instead of pushing the card wider than the screen.
export const STYLE = `
*{box-sizing:border-box}
body{font:15px/1.4 system-ui,sans-serif;margin:0;padding:12px;background:#f4f4f4;color:#111}
h1{font-size:20px;margin:0}h2{font-size:17px;margin:0 0 8px}small{color:#555;font-weight:normal}
h1 small{font-size:14px}
.card{background:#fff;border-radius:8px;padding:12px;margin:0 0 12px;box-shadow:0 1px 3px #0002;min-width:0}
#displays{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,540px),1fr));gap:0 12px;align-items:start}
.ident{margin:2px 0 8px;color:#333}.ident span{white-space:nowrap;margin-right:12px}
.live{display:block;max-width:100%;height:auto;background:#000;image-rendering:pixelated;margin:0 0 8px}
table{display:grid;width:100%;border-collapse:collapse}thead,tbody,tr{display:contents}
table.kv{grid-template-columns:max-content minmax(0,1fr)}
table.areas{grid-template-columns:max-content minmax(0,1fr) max-content;margin-top:8px}
th,td{text-align:left;padding:3px 6px;border-bottom:1px solid #eee;min-width:0}
td{overflow-wrap:break-word}
th{white-space:nowrap;color:#444;font-weight:600}
td.key,.num,code,.name,.when,.tag{white-space:nowrap}
.num{text-align:right}
code{font:13px ui-monospace,monospace}code.path{white-space:normal}
.pair{display:inline-block;max-width:100%;margin-right:10px}
.name{color:#444}
.note{color:#666;font-size:13px}
.bad,.bad .name,.bad .note{color:#b00020}.ok{color:#0a7a0a}.dim{color:#888}
b.bad{color:#b00020}
.problems{background:#fde7ea;border-radius:6px;margin:0 0 8px;padding:6px 6px 6px 26px}
ul.faults{margin:4px 0;padding-left:20px}ul.faults li{margin:0 0 6px;overflow-wrap:break-word}
.tag{background:#003f7f;color:#fff;border-radius:4px;padding:0 5px;font-size:12px;vertical-align:2px}
#stale{position:sticky;top:0;z-index:1;background:#b00020;color:#fff;padding:6px 12px;border-radius:6px;margin:0 0 8px}
`;

/**
 * The page refreshes its facts every few seconds without reloading the live pictures: each
 * display's card is matched to the fresh one by its display id and its text parts swapped
 * whole, so no card ever shows another display's facts. A display added or resized by a
 * configuration swap gets a new card (a new picture at the new size).
 */
export const SCRIPT = `
(() => {
  const every = Math.max(200, Number(document.body.dataset.refreshMs) || 5000);
  let updated = Date.now();
  // Each picture is a live MJPEG stream; when it ends (restart, configuration swap) it is
  // opened again after 2 s.
  document.addEventListener('error', (e) => {
    const img = e.target;
    if (!(img instanceof HTMLImageElement) || !img.classList.contains('live')) return;
    setTimeout(() => { img.src = img.src.replace(/&t=\\d+$/, '') + '&t=' + Date.now(); }, 2000);
  }, true);
  function stale(why) {
    const el = document.getElementById('stale');
    el.textContent = 'Not updated for ' + Math.round((Date.now() - updated) / 1000) + ' s: ' + why;
    el.hidden = false;
  }
  function swap(card, fresh, part) {
    const a = card.querySelector(':scope > ' + part), b = fresh.querySelector(':scope > ' + part);
    if (a && b) a.replaceWith(b);
  }
  async function refresh() {
    try {
      const res = await fetch(location.href, { cache: 'no-store', credentials: 'same-origin' });
      if (!res.ok) {
        const body = await res.json().catch(() => ({}));
        throw new Error('the service answered ' + res.status + (body.message ? ' (' + body.message + ')' : ''));
      }
      const doc = new DOMParser().parseFromString(await res.text(), 'text/html');
      const list = document.getElementById('displays'), freshList = doc.getElementById('displays');
      if (!list || !freshList) throw new Error('the answer is not the status page');
      document.title = doc.title;
      document.getElementById('facts').replaceWith(doc.getElementById('facts'));
      // Crons, pollers, brightness...: text only, swapped whole.
      document.getElementById('components').replaceWith(doc.getElementById('components'));
      const old = new Map([...list.children].map((c) => [c.dataset.id, c]));
      let at = list.firstElementChild;
      for (const fresh of [...freshList.children]) {
        let card = old.get(fresh.dataset.id);
        old.delete(fresh.dataset.id);
        if (card && card.dataset.size === fresh.dataset.size) {
          swap(card, fresh, '.head');
          swap(card, fresh, '.body');
        } else {
          if (card) {
            if (card === at) at = card.nextElementSibling;
            card.remove();
          }
          card = fresh;
        }
        // Moved only when out of place: a picture that stays where it is keeps its stream.
        if (card !== at) list.insertBefore(card, at);
        at = card.nextElementSibling;
      }
      for (const card of old.values()) card.remove();
      updated = Date.now();
      document.getElementById('stale').hidden = true;
      document.body.dataset.refreshes = String(Number(document.body.dataset.refreshes || 0) + 1);
    } catch (err) {
      stale(err instanceof TypeError ? 'the service does not answer' : err.message);
    }
    setTimeout(refresh, every);
  }
  setTimeout(refresh, every);
})();
`;
