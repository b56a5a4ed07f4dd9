import type { CommandModule } from 'yargs';
import { ABOUT } from './about.js';
import { openStore } from '../../store/open.js';
import { resolved, withOptions } from '../options.js';
import { storeSummaryLines } from '../report/summary.js';
import { waitingJson } from '../report/waiting.js';
import { handler } from '../run.js';

/** A worker beats at least every 30 s (heartbeatMs); one silent for twice that is gone. */
const LIVE_MS = 60_000;

/** `anwc stats`: what the database holds now, whichever process wrote it (the harvest summary's facts). */
export const statsCommand: CommandModule = {
  ...ABOUT.stats,
  builder: (y) =>
    withOptions(y, 'db', 'json')
      .example('anwc stats', 'during or after a harvest, from any terminal')
      .example('anwc stats --json | jq .links', 'for scripts'),
  handler: handler(async (argv: Record<string, unknown>) => {
    const store = await openStore(String(resolved(argv, 'db').value), { mustExist: true });
    try {
      const now = Date.now();
      const [summary, top, runs, workers, waiting] = await Promise.all([
        store.summary(), store.topDomains(10), store.runs(5), store.liveWorkers(now - LIVE_MS), store.waitingRetries(now),
      ]);
      const wheel = top.domains.map((d) => ({ host: d.host, score: d.score, share: top.totalScore > 0 ? d.score / top.totalScore : 0, pages: d.pages, nodes: d.nodes }));
      if (argv.json) {
        process.stdout.write(`${JSON.stringify({ ...summary, waiting: waitingJson(waiting ?? undefined, now), wheel, runs, workers })}\n`);
        return;
      }
      const lines = storeSummaryLines(summary, wheel, now, waiting);
      if (workers.length > 0) {
        lines.push(`live workers: ${workers.length}`);
        for (const w of workers) {
          const rate = w.pages / Math.max(1, (w.heartbeatAt - w.startedAt) / 1000);
          lines.push(`  ${w.owner}  ${w.pages} pages, ${rate.toFixed(1)} pages/s, ${w.leases} lease(s), last beat ${Math.max(0, Math.round((now - w.heartbeatAt) / 1000))} s ago`);
        }
      }
      if (runs.length > 0) {
        lines.push('recent runs:');
        for (const r of runs) {
          const st = r.stats ?? {};
          const when = new Date(r.startedAt).toISOString().replace('T', ' ').slice(0, 19);
          const cut = Number(st.linksCut ?? 0) > 0 ? `, ${String(st.linksCut)} links past the cap of links a page` : '';
          // A run's counts are saved as it ends: one still running, or killed, has none to show,
          // though what it stored is in the figures above.
          lines.push(r.endedAt === null
            ? `  #${r.id}  ${when} UTC  running, or cut off before it could save its counts (what it stored is counted above)`
            : `  #${r.id}  ${when} UTC  ${String(st.pagesDone ?? 0)} pages, ${String(st.nodes ?? 0)} nodes${cut}  (stopped: ${String(st.stop ?? '?')})`);
        }
      }
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    finally {
      await store.close();
    }
  }),
};
