import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import mysql from 'mysql2/promise';
import { parseDbUrl, type MysqlServer } from '../../src/store/url.js';
import { uniqueName } from './db.js';

/**
 * The local Galera cluster of scripts/galera.sh, named by ANWC_TEST_GALERA (its servers with no
 * database: mysql://root@127.0.0.1:3311,127.0.0.1:3312,127.0.0.1:3313/). Without it the suites
 * that need a cluster are skipped with one line; CI sets ANWC_REQUIRE_GALERA=1, where they fail.
 */
export const GALERA_BASE = process.env.ANWC_TEST_GALERA ?? '';

export function needsGalera(): false | string {
  if (GALERA_BASE !== '') return false;
  const reason = 'needs a Galera cluster: run scripts/galera.sh start and set ANWC_TEST_GALERA=mysql://root@127.0.0.1:3311,127.0.0.1:3312,127.0.0.1:3313/';
  if (process.env.ANWC_REQUIRE_GALERA === '1') throw new Error(`cluster missing: ${reason}`);
  return reason;
}

export interface ClusterDb {
  /** The database on all nodes, in the cluster's order. */
  url: string;
  /** The database on node i alone. */
  on(i: number): string;
  servers: MysqlServer[];
  cleanup(): Promise<void>;
}

export function clusterDb(): ClusterDb {
  const name = uniqueName('anwc_galera');
  const url = `${GALERA_BASE.replace(/\/$/, '')}/${name}`;
  const t = parseDbUrl(url);
  if (t.kind !== 'mysql') throw new Error(`ANWC_TEST_GALERA is not a MySQL address: ${GALERA_BASE}`);
  const hostList = t.servers.map((s) => `${s.host}:${s.port}`).join(',');
  return {
    url,
    servers: t.servers,
    on: (i) => url.replace(hostList, `${t.servers[i]!.host}:${t.servers[i]!.port}`),
    cleanup: async () => {
      for (const s of t.servers) {
        try {
          const c = await mysql.createConnection({ host: s.host, port: s.port, user: t.user, password: t.password });
          await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
          await c.end();
          return;
        } catch {
          // this node is down: the next drops it for the cluster
        }
      }
    },
  };
}

/** A status counter summed over the nodes that answer. */
export async function statusSum(servers: MysqlServer[], names: string[]): Promise<number> {
  let sum = 0;
  for (const s of servers) {
    const c = await mysql.createConnection({ host: s.host, port: s.port, user: 'root' });
    try {
      const [rows] = await c.query('SHOW GLOBAL STATUS WHERE Variable_name IN (?)', [names]);
      for (const r of rows as { Value: string }[]) sum += Number(r.Value);
    } finally {
      await c.end();
    }
  }
  return sum;
}

/** Stops or starts node n (1-based) with the script that made the cluster. */
export function galeraScript(verb: 'stop-node' | 'start-node', n: number): void {
  const r = spawnSync('bash', [resolve('scripts', 'galera.sh'), verb, String(n)], { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`scripts/galera.sh ${verb} ${n} failed: ${r.stderr}`);
}

/** One status value of one node. */
export async function nodeStatus(s: MysqlServer, name: string): Promise<string> {
  const c = await mysql.createConnection({ host: s.host, port: s.port, user: 'root' });
  try {
    const [rows] = await c.query('SHOW GLOBAL STATUS LIKE ?', [name]);
    return (rows as { Value: string }[])[0]?.Value ?? '';
  } finally {
    await c.end();
  }
}

/**
 * Cuts a node off from the others' group traffic (gmcast.isolate) or lets it back, and waits
 * (bounded) until it is out of the primary component, or back in it and synced with all three.
 */
export async function isolateNode(s: MysqlServer, cut: boolean): Promise<void> {
  const c = await mysql.createConnection({ host: s.host, port: s.port, user: 'root' });
  try {
    await c.query(`SET GLOBAL wsrep_provider_options = 'gmcast.isolate=${cut ? 1 : 0}'`);
  } finally {
    await c.end();
  }
  const done = async () => cut
    ? (await nodeStatus(s, 'wsrep_cluster_status')) !== 'Primary'
    : (await nodeStatus(s, 'wsrep_local_state_comment')) === 'Synced' && (await nodeStatus(s, 'wsrep_cluster_size')) === '3';
  for (let waited = 0; !(await done()); waited += 100) {
    if (waited > 60_000) throw new Error(`node ${s.port} did not ${cut ? 'leave' : 'rejoin'} the cluster within 60 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
