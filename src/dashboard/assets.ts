// The dashboard's own stylesheet and script, served with versioned names (a hash of
// their content) so they can be cached for good, and an ETag for anyone who asks again.
import { createHash } from 'node:crypto';

const CSS = `
:root{--ink:#1b1f24;--muted:#59636e;--line:#d0d7de;--bg:#f6f8fa;--card:#fff;--brand:#0b5cad;--brand-ink:#fff;--ok:#1a7f37;--bad:#b42318;--warn:#9a6700;--focus:#ff9f1c}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--ink);background:var(--bg)}
a{color:var(--brand)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--card);padding:.5rem 1rem;z-index:10}
.skip:focus{left:.5rem}
.top{background:#0d2b45;color:#fff;padding:.5rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center}
.top a{color:#fff}
.brand{font-weight:700;text-decoration:none;font-size:1.1rem}
.top nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.top nav a{text-decoration:none;padding:.25rem 0;display:inline-block}
.top nav a[aria-current=page]{border-bottom:3px solid var(--focus)}
.top .soon{color:#9fb3c8}
.who{margin-left:auto;display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;font-size:.9rem}
.who form{display:inline}
.who button,.mode button{background:transparent;color:#fff;border:1px solid #9fb3c8;border-radius:4px;padding:.2rem .6rem;font:inherit;cursor:pointer}
.mode{display:flex;gap:.25rem;align-items:center}
.org-switch{display:flex;gap:.25rem;align-items:center}
.org-switch select{font:inherit;max-width:14rem}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
fieldset.events-choice{border:1px solid var(--line,#ccd);border-radius:4px;margin:.5rem 0;padding:.5rem}
.mode button[aria-pressed=true]{background:#fff;color:#0d2b45}
.testbar{background:#fff3cd;color:#5c4400;text-align:center;padding:.25rem;font-size:.9rem}
.testbar a{color:inherit;text-decoration:underline}
main{max-width:72rem;margin:0 auto;padding:1rem}
main:focus{outline:none}
h1{font-size:1.6rem;margin:.5rem 0 1rem;overflow-wrap:anywhere}
h2{font-size:1.25rem;margin:1.5rem 0 .5rem}
h3{font-size:1.05rem;margin:1rem 0 .5rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem;margin:0 0 1rem}
.grid{display:grid;gap:1rem;grid-template-columns:repeat(auto-fit,minmax(min(100%,16rem),1fr))}
.grid.stats{grid-template-columns:repeat(auto-fit,minmax(9rem,1fr));margin-bottom:1rem}
.stats .card{margin:0}
.stat{font-size:1.6rem;font-weight:700;display:block}
td button,td .button{margin:0}
td.mono{white-space:nowrap;overflow-wrap:normal}
.card>h2:first-child,.card>h3:first-child{margin-top:0}
.muted{color:var(--muted)}
.flash{border-radius:6px;padding:.75rem 1rem;margin:0 0 1rem;border:1px solid}
.flash.ok{background:#dafbe1;border-color:#4ac26b}
.flash.error{background:#ffebe9;border-color:#ff8182}
.verify-note{background:#fff8c5;border:1px solid #d4a72c;border-radius:6px;padding:.75rem 1rem;margin:0 0 1rem}
.verify-note p{margin:0}
.verify-note form{margin:0}
.flash.secret{background:#fff8c5;border-color:#d4a72c}
.secret-value{display:block;font:1rem ui-monospace,SFMono-Regular,Menlo,monospace;background:#fff;border:1px dashed #d4a72c;padding:.5rem;margin:.5rem 0;overflow-wrap:anywhere;user-select:all}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
label.inline{display:inline-flex;gap:.4rem;align-items:center;font-weight:400;margin:.5rem 1rem .25rem 0}
.hint{font-weight:400;color:var(--muted);font-size:.9rem;display:block}
input,select,textarea{font:inherit;width:100%;max-width:36rem;padding:.5rem;border:1px solid #8c959f;border-radius:6px;background:#fff;color:var(--ink)}
input[type=checkbox],input[type=radio]{width:auto}
textarea{min-height:6rem}
button,.button{font:inherit;display:inline-block;background:var(--brand);color:var(--brand-ink);border:0;border-radius:6px;padding:.55rem 1rem;cursor:pointer;text-decoration:none;margin:.5rem .5rem 0 0}
button.secondary,.button.secondary{background:#eaeef2;color:var(--ink);border:1px solid var(--line)}
button.danger{background:var(--bad)}
.row{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end}
.row>*{flex:1 1 12rem}
.row>.fit{flex:0 0 auto}
.actions{display:flex;flex-wrap:wrap;gap:.25rem .5rem;align-items:center}
.actions form{display:inline}
.table-wrap{overflow-x:auto;-webkit-overflow-scrolling:touch;max-width:100%}
table{border-collapse:collapse;width:100%;background:var(--card)}
caption{text-align:left;padding:0 0 .25rem}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-size:.85rem;color:var(--muted);font-weight:600;white-space:nowrap}
td.num,th.num{text-align:right}
td.nowrap{white-space:nowrap}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.9em;overflow-wrap:anywhere}
.badge{display:inline-block;border-radius:999px;padding:0 .55rem;font-size:.8rem;border:1px solid var(--line);background:#eaeef2;white-space:nowrap}
.badge.confirmed,.badge.published,.badge.active,.badge.ok,.badge.checked_in{background:#dafbe1;border-color:#4ac26b}
.badge.pending,.badge.draft,.badge.past_due,.badge.pending_authorisation,.badge.cancelling{background:#fff8c5;border-color:#d4a72c}
.badge.processed{background:#dafbe1;border-color:#4ac26b}
.badge.processing{background:#fff8c5;border-color:#d4a72c}
.badge.cancelled,.badge.refunded,.badge.ended,.badge.expired,.badge.revoked,.badge.failed,.badge.reversed{background:#ffebe9;border-color:#ff8182}
.tabs{display:flex;flex-wrap:wrap;gap:.25rem;border-bottom:1px solid var(--line);margin:0 0 1rem;padding:0;list-style:none}
.tabs a{display:inline-block;padding:.5rem .75rem;text-decoration:none;border-radius:6px 6px 0 0}
.tabs a[aria-current=page]{background:var(--card);border:1px solid var(--line);border-bottom-color:var(--card);margin-bottom:-1px;font-weight:600}
progress{width:100%;max-width:36rem;height:1.25rem}
.chart{width:100%;height:auto;max-width:44rem;display:block}
.chart text{font:11px system-ui,sans-serif;fill:var(--muted)}
.chart .bar{fill:var(--brand)}
.chart .line{fill:none;stroke:var(--ok);stroke-width:2}
.chart .axis{stroke:var(--line)}
.plan{width:100%;height:auto;max-height:70vh;display:block;background:var(--card)}
.plan .stage{fill:var(--ink)}
.plan .seat{stroke:none}
.plan .seat.accessible{stroke:var(--ink);stroke-width:.12}
.plan .seat.blocked{fill:#c9ced4}
.cat-0{fill:#b8860b;background:#b8860b}.cat-1{fill:#607d8b;background:#607d8b}.cat-2{fill:#0b5cad;background:#0b5cad}.cat-3{fill:#1a7f37;background:#1a7f37}
.cat-4{fill:#8e44ad;background:#8e44ad}.cat-5{fill:#c0392b;background:#c0392b}.cat-6{fill:#16a085;background:#16a085}.cat-7{fill:#d35400;background:#d35400}
.swatch{display:inline-block;width:.9em;height:.9em;border-radius:50%;vertical-align:-.1em}
.pager{display:flex;gap:1rem;margin:1rem 0}
.mail-frame{width:100%;max-width:48rem;height:40rem;border:1px solid var(--line);border-radius:8px;background:#fff}
pre.mail-text{white-space:pre-wrap;overflow-wrap:anywhere;max-width:48rem}
ul.files{padding-left:1.25rem}
ul.files a{overflow-wrap:anywhere}
.testnote{background:#fff3cd;color:#5c4400;border:1px solid #d4a72c;border-radius:6px;padding:.5rem .75rem}
ul.notes{margin:.5rem 0;padding-left:1.25rem;color:var(--bad)}
td.debit{color:var(--bad)}
.embed-preview-note{border:1px dashed var(--line);border-radius:8px;padding:.75rem;max-width:40rem}
.embed-preview{width:100%;max-width:40rem;height:28rem;border:1px solid var(--line);border-radius:8px;background:#fff}
pre.snippet{white-space:pre-wrap;overflow-wrap:anywhere;background:#0d1117;color:#e6edf3;padding:.75rem;border-radius:6px;font-size:.85rem}
.auth{max-width:28rem;margin:2rem auto}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0;overflow-wrap:anywhere}
@media (max-width:40rem){.who{margin-left:0;width:100%}main{padding:.75rem}th,td{padding:.4rem}}
ul.cards{list-style:none;margin:0;padding:0}
tbody th[scope=row]{font-size:1rem;color:var(--ink);white-space:normal}
/* Under 600 px a list table becomes a stack of cards: one per row, each cell on its own line under its column's name. */
@media (max-width:37.5rem){
.table-wrap table.cards-narrow,.cards-narrow tbody,.cards-narrow tr,.cards-narrow td,.cards-narrow tbody th{display:block;width:100%}
.cards-narrow thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.table-wrap table.cards-narrow{background:transparent}
.cards-narrow caption{display:block}
.cards-narrow tr{background:var(--card);border:1px solid var(--line);border-radius:8px;margin:0 0 .75rem;padding:.25rem .5rem}
.cards-narrow td,.cards-narrow tbody th{border:0;padding:.2rem 0;text-align:left}
.cards-narrow td.num{text-align:left}
.cards-narrow td[data-label]::before{content:attr(data-label);display:block;font-size:.8rem;color:var(--muted);font-weight:600}
.cards-narrow td.mono,.cards-narrow td.nowrap{white-space:normal;overflow-wrap:anywhere}
.top{gap:.25rem .75rem}
}
/* Dark mode follows the system's setting. */
@media (prefers-color-scheme:dark){
:root{color-scheme:dark;--ink:#e6edf3;--muted:#9da7b3;--line:#3d444d;--bg:#0d1117;--card:#161b22;--brand:#4493f8;--brand-ink:#0d1117;--ok:#3fb950;--bad:#f85149;--warn:#d29922}
a{color:#6cb6ff}
.top{background:#010409}
input,select,textarea{background:#0d1117;color:var(--ink);border-color:#656c76}
button.secondary,.button.secondary{background:#21262d;color:var(--ink)}
button.danger{background:#b62324;color:#fff}
.badge{background:#21262d;color:var(--ink)}
.badge.confirmed,.badge.published,.badge.active,.badge.ok,.badge.checked_in,.badge.processed{background:#033a16;border-color:#2ea043}
.badge.pending,.badge.draft,.badge.past_due,.badge.pending_authorisation,.badge.cancelling,.badge.processing{background:#3b2300;border-color:#9e6a03}
.badge.cancelled,.badge.refunded,.badge.ended,.badge.expired,.badge.revoked,.badge.failed,.badge.reversed{background:#490202;border-color:#da3633}
.flash.ok{background:#033a16;border-color:#2ea043}
.flash.error{background:#490202;border-color:#da3633}
.flash.secret,.verify-note,.testnote,.testbar{background:#3b2300;color:var(--ink);border-color:#9e6a03}
.secret-value{background:#0d1117}
.embed-preview{background:#fff}
}
`;

const JS = `
'use strict';
document.addEventListener('submit', function (e) {
  var f = e.target;
  var msg = f && f.getAttribute && f.getAttribute('data-confirm');
  if (msg && !window.confirm(msg)) e.preventDefault();
});
document.addEventListener('click', function (e) {
  var b = e.target && e.target.closest && e.target.closest('[data-copy]');
  if (!b) return;
  var t = document.getElementById(b.getAttribute('data-copy'));
  if (t && navigator.clipboard) navigator.clipboard.writeText(t.textContent.trim()).then(function () { b.textContent = 'Copied'; });
});
// A file chosen for a form's text (the bank statement): read here, sent as the textarea's text.
document.addEventListener('change', function (e) {
  var f = e.target;
  var id = f && f.getAttribute && f.getAttribute('data-fill');
  var t = id && document.getElementById(id);
  if (!t || !f.files || !f.files[0]) return;
  f.files[0].text().then(function (s) { t.value = s; });
});
// Parts of a page that keep themselves current (check-in progress): the server renders the fragment.
Array.prototype.forEach.call(document.querySelectorAll('[data-poll]'), function (el) {
  var every = Number(el.getAttribute('data-poll-seconds') || 15) * 1000;
  setInterval(function () {
    if (document.hidden) return;
    fetch(el.getAttribute('data-poll'), { credentials: 'same-origin', headers: { accept: 'text/html' } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (h) { if (h !== null) el.innerHTML = h; })
      .catch(function () {});
  }, every);
});
`;

function asset(body: string, ext: 'css' | 'js') {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return {
    name: `app.${hash}.${ext}`,
    body,
    etag: `"${hash}"`,
    type: ext === 'css' ? 'text/css; charset=utf-8' : 'text/javascript; charset=utf-8',
  };
}

export const ASSETS = [asset(CSS, 'css'), asset(JS, 'js')] as const;
export const CSS_URL = `/dashboard/assets/${ASSETS[0].name}`;
export const JS_URL = `/dashboard/assets/${ASSETS[1].name}`;
