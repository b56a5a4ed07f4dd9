import { StorageFaultError, StoreUnavailableError, UserError } from '../errors.js';
import { TextTakenError, type Store } from './store.js';

/** The Store's methods, each a call the store's thread answers. */
export type StoreMethod = Exclude<keyof Store, 'kind'>;

/**
 * Every method of Store, checked both ways by the compiler: a method added to Store and not
 * here fails the build (see MissingMethod), so the thread never lacks one.
 */
export const STORE_METHODS = [
  'schemaVersion', 'close', 'ensureMetaWords', 'metaWordByStem', 'listMetaWords', 'markupFile', 'replaceMarkupFile',
  'saveProfiles', 'profiles', 'addMetaLinks', 'nodeLinks', 'node', 'nodes', 'countNodesOfStem', 'weightsOfStem',
  'nodesSharingBands', 'nodeSources', 'setNodeStatus', 'curateNode', 'nodeAudit', 'story', 'nodeTimes', 'urlChecks',
  'saveUrlChecks', 'recordSearch', 'recordSeeds', 'queryMetaWords', 'addLinks', 'link', 'linkByUrl', 'leaseNextLink',
  'claimNextLink', 'completePage', 'heartbeat', 'workerStopped', 'liveWorkers', 'scoresSince', 'releaseExpiredLeases', 'releaseLinks',
  'leaseOwners', 'releaseLeasesOf', 'nextDueAt', 'waitingRetries', 'requeueRefused', 'retryFailed', 'domainsWithPending',
  'domainsWithLinksAfter', 'domain', 'topDomains', 'setNextFetchAt', 'saveRobots', 'loadRobots', 'summary', 'searchQuery',
  'runs', 'startRun', 'endRun', 'run', 'getSetting', 'setSetting',
] as const satisfies readonly StoreMethod[];

type MissingMethod = Exclude<StoreMethod, (typeof STORE_METHODS)[number]>;
// A compile-time check only: names a Store method missing from STORE_METHODS.
const everyMethod: [MissingMethod] extends [never] ? true : MissingMethod = true;
void everyMethod;

/** What the store's thread is started with. */
export interface ThreadOptions {
  /** The store's --db URL. */
  dbUrl: string;
  mustExist: boolean;
  /** SQLite's page cache. */
  cacheKib?: number;
}

export interface Call {
  id: number;
  method: StoreMethod;
  args: unknown[];
}

export type Reply = { id: number; value: unknown } | { id: number; error: SentError };

/** An error as it crosses threads: structured cloning keeps neither its class nor its fields. */
export interface SentError {
  className: string;
  message: string;
  stack?: string;
  fields: Record<string, unknown>;
  cause?: SentError;
}

export function sendError(err: unknown): SentError {
  if (!(err instanceof Error)) return { className: 'Error', message: String(err), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(err)) {
    if (k !== 'cause' && isCloneable(v)) fields[k] = v;
  }
  const cause = (err as { cause?: unknown }).cause;
  return { className: err.constructor.name, message: err.message, stack: err.stack, fields, cause: cause === undefined ? undefined : sendError(cause) };
}

function isCloneable(v: unknown): boolean {
  return v === null || ['string', 'number', 'boolean', 'undefined', 'bigint'].includes(typeof v);
}

/** The classes the callers tell apart (the CLI's exit codes, the studio's conflict); others arrive as an Error with the same name and fields. */
const CLASSES: Record<string, { prototype: Error }> = {
  UserError, StoreUnavailableError, StorageFaultError, TextTakenError, RangeError, TypeError,
};

export function receiveError(sent: SentError): Error {
  const err = Object.create((CLASSES[sent.className] ?? Error).prototype) as Error;
  Object.defineProperty(err, 'message', { value: sent.message, writable: true, configurable: true });
  Object.defineProperty(err, 'stack', { value: sent.stack, writable: true, configurable: true });
  Object.assign(err, sent.fields);
  if (sent.cause) Object.defineProperty(err, 'cause', { value: receiveError(sent.cause), writable: true, configurable: true });
  return err;
}
