import type { RuntimeAction } from './action.js';

/** Appendix B `trace`: one line per URI the walker acts on, with its depth and status. */
export const trace = (): RuntimeAction => ({
  name: 'trace',
  run: (v) => v.report.text(`${'  '.repeat(v.link.depth)}${v.page.status} ${v.page.finalUrl}`),
});

/** Appendix B `trace-headers`: the response headers of each URI, one `name: value` a line. */
export const traceHeaders = (): RuntimeAction => ({
  name: 'trace-headers',
  run: (v) => {
    const pad = '  '.repeat(v.link.depth + 1);
    for (const [k, val] of Object.entries(v.page.headers).sort(([a], [b]) => a.localeCompare(b))) v.report.text(`${pad}${k}: ${val}`);
  },
});
