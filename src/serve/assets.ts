/**
 * The studio's only script and style, served from its own origin so that the Content-Security-
 * Policy allows no inline code. Pages work without the script; it adds live updates.
 */
export const STUDIO_JS = `'use strict';
(function () {
  var range = document.getElementById('proportion');
  var out = document.getElementById('mix-value');
  if (range && out) range.addEventListener('input', function () { out.textContent = range.value + ' %'; });
  var job = document.getElementById('job');
  var wheel = document.getElementById('wheel');
  if (!job && !wheel) return;
  // The server renders (and escapes) both fragments; they replace what the page showed.
  var events = new EventSource('/events');
  events.addEventListener('state', function (e) {
    var s = JSON.parse(e.data);
    if (job) job.innerHTML = s.job;
    if (wheel) wheel.innerHTML = s.wheel;
    document.documentElement.dataset.running = s.running ? 'yes' : 'no';
  });
  window.addEventListener('pagehide', function () { events.close(); });
})();
`;

export const STUDIO_CSS = `
:root { --ink: #1d1d1f; --muted: #5f6368; --author: #2e5e8c; --crawler: #7a4a12; --line: #d9d9de; }
body { font: 16px/1.5 Georgia, 'Times New Roman', serif; color: var(--ink); margin: 0; background: #fbfaf7; }
header { display: flex; gap: 2em; align-items: baseline; padding: .6em 1.5em; border-bottom: 1px solid var(--line); font-family: system-ui, sans-serif; }
nav a { margin-right: 1em; color: var(--ink); }
nav a[aria-current="page"] { font-weight: bold; text-decoration: none; }
main { max-width: 52em; padding: 0 1.5em 3em; }
h1 { font-size: 1.6em; }
h2.file { font-size: 1.1em; font-family: system-ui, sans-serif; margin-top: 2em; }
h3.section { font-size: .8em; font-family: system-ui, sans-serif; color: var(--muted); text-transform: uppercase; letter-spacing: .08em; margin: 1.4em 0 .3em; } h2 { font-size: 1.2em; margin-top: 1.6em; }
.hint, .meta { color: var(--muted); font-size: .85em; font-family: system-ui, sans-serif; }
.node { border-left: 4px solid var(--line); padding: .1em 1em; margin: 1em 0; }
.node.author { border-color: var(--author); } .node.crawler { border-color: var(--crawler); }
.node.swapped { background: #fff6d8; }
.badge { display: inline-block; padding: 0 .4em; border: 1px solid currentColor; border-radius: 3px; }
a.word { color: inherit; text-decoration: underline dotted; text-underline-offset: 3px; }
a.word:hover, a.word:focus { background: #ffe9a8; }
.notice { padding: .4em .8em; border-radius: 4px; background: #e8f3e8; font-family: system-ui, sans-serif; }
.notice.error { background: #fbe3e3; }
form.filters, form.edit, form.mix { display: flex; flex-wrap: wrap; gap: .6em 1em; align-items: end; font-family: system-ui, sans-serif; }
form.edit { flex-direction: column; align-items: stretch; }
form.inline { display: inline-block; margin-right: 1em; }
form.review { display: inline; }
ol.nodes { padding-left: 1.2em; }
.review-approved { border-color: #2f7d32; } .review-rejected { opacity: .6; }
table { border-collapse: collapse; font-family: system-ui, sans-serif; font-size: .9em; }
th, td { border-bottom: 1px solid var(--line); padding: .2em .6em; text-align: left; vertical-align: top; }
pre.log { background: #f0efe9; padding: .6em; font-size: .8em; white-space: pre-wrap; }
svg.pie { float: left; margin: 0 2em 1em 0; }
.bars rect { fill: var(--crawler); }
svg.timeline { display: block; margin-bottom: .6em; }
.scroll { overflow-x: auto; }
.timeline-table td, .timeline-table th { padding: .1em .4em; text-align: right; }
.key { display: inline-block; width: .8em; height: .8em; margin-right: .4em; }
.s0 { fill: #4e79a7; background: #4e79a7; } .s1 { fill: #f28e2b; background: #f28e2b; } .s2 { fill: #e15759; background: #e15759; }
.s3 { fill: #76b7b2; background: #76b7b2; } .s4 { fill: #59a14f; background: #59a14f; } .s5 { fill: #edc948; background: #edc948; }
.s6 { fill: #b07aa1; background: #b07aa1; } .s7 { fill: #ff9da7; background: #ff9da7; } .s8 { fill: #9c755f; background: #9c755f; }
.s9 { fill: #bab0ac; background: #bab0ac; } .s10 { fill: #d3d3d3; background: #d3d3d3; }
path.slice { stroke: #fff; stroke-width: 1; }
`;
