import { parentPort } from 'node:worker_threads';
import type { ActResult } from '../engine.js';
import { narrativeAction, type MetaContext, type NarrativeOptions, type NarrativePage } from './narrative.js';

/** A page for the action; `topics` only when they changed since the last call (null: none). */
export interface ActionCall {
  id: number;
  page: NarrativePage;
  meta: Omit<MetaContext, 'topics'>;
  topics?: MetaContext['topics'] | null;
  opts: NarrativeOptions;
}

export type ActionReply = { id: number; value: ActResult } | { id: number; error: string };

/** The thread of narrative-thread.ts: the calls of a turn come as one message and go back as one. */
if (parentPort) {
  const port = parentPort;
  let topics: MetaContext['topics'];
  port.on('message', (calls: ActionCall[]) => {
    port.postMessage(calls.map((c): ActionReply => {
      if (c.topics !== undefined) topics = c.topics ?? undefined;
      try {
        return { id: c.id, value: narrativeAction(c.page, topics ? { ...c.meta, topics } : c.meta, c.opts) };
      } catch (err) {
        return { id: c.id, error: err instanceof Error ? err.message : String(err) };
      }
    }));
  });
}
