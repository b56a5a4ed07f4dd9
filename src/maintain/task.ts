/**
 * A MOMspider maintenance task (seed paper 004): an owner's infostructure, walked from its Top URL
 * by one of three traversal types, each deciding what is a leaf (tested, not followed):
 * - Site: a document on another host:port than the Top is a leaf;
 * - Tree: a document outside the Top's directory (path level) is a leaf;
 * - Owner: a document whose Owner (meta or header) is not the task's Name is a leaf.
 * Leaves are tested with HEAD; documents that may be walked are fetched with GET.
 */

export type TraversalType = 'site' | 'tree' | 'owner';
export const TRAVERSAL_TYPES: readonly TraversalType[] = ['site', 'tree', 'owner'];

export interface MaintenanceTask {
  type: TraversalType;
  name: string;
  top: string;
  indexTitle?: string;
  /** Days within which a modification is worth telling (EmailChanged). */
  changedDays?: number;
  /** Days within which an expiry is worth telling (EmailExpired). */
  expiredDays?: number;
}

function hostPort(u: URL): string {
  return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
}

/** The Top's directory: its path up to and including the last slash. */
function topDirectory(top: URL): string {
  return top.pathname.slice(0, top.pathname.lastIndexOf('/') + 1);
}

/** Whether the traversal may go on from a document at this URL (before its content is known). */
export function mayWalk(task: MaintenanceTask, url: string): boolean {
  const top = new URL(task.top);
  const u = new URL(url);
  if (hostPort(u) !== hostPort(top)) return false;
  return task.type !== 'tree' || u.pathname.startsWith(topDirectory(top));
}

/** Whether the document, now fetched, belongs to the task: for Owner tasks its Owner must be the task's Name. */
export function owned(task: MaintenanceTask, owner: string | undefined): boolean {
  return task.type !== 'owner' || (owner !== undefined && owner.trim().toLowerCase() === task.name.trim().toLowerCase());
}
