import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../errors.js';
import { packageRoot } from '../package-root.js';

/**
 * Numbered schema migrations, read from sql/<dialect>/NNN_name.sql. The files ship with the
 * package (package.json "files"), so they are looked for above this module both when it runs
 * from src/ (tsx) and from dist/src/ (compiled).
 */
export type Dialect = 'sqlite' | 'mysql';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

const FILE = /^(\d{3,})_([a-z0-9_]+)\.sql$/;

export function sqlDir(dialect: Dialect): string {
  return join(packageRoot(), 'sql', dialect);
}

export function loadMigrations(dialect: Dialect, dir = sqlDir(dialect)): Migration[] {
  const out: Migration[] = [];
  for (const file of readdirSync(dir).sort()) {
    const m = FILE.exec(file);
    if (!m) continue;
    out.push({ version: Number(m[1]), name: m[2]!, sql: readFileSync(join(dir, file), 'utf8') });
  }
  out.forEach((mig, i) => {
    if (mig.version !== i + 1) throw new Error(`migration numbers in ${dir} must run 1, 2, 3…; found ${mig.version} at place ${i + 1}`);
  });
  return out;
}

/** The newest schema this program knows. */
export function latestVersion(migrations: Migration[]): number {
  return migrations.length === 0 ? 0 : migrations[migrations.length - 1]!.version;
}

/**
 * Refuses a database written by a newer anwc: its tables may mean things this program does not
 * know, so it touches nothing rather than guess.
 */
export function refuseNewer(current: number, migrations: Migration[], where: string): void {
  const latest = latestVersion(migrations);
  if (current > latest) {
    throw new UserError(`database ${where} has schema version ${current}, newer than this anwc knows (${latest}); nothing was changed`, {
      fix: 'upgrade anwc, or point --db at another database',
    });
  }
}

/** Migrations still to apply, oldest first. */
export function pending(current: number, migrations: Migration[]): Migration[] {
  return migrations.filter((m) => m.version > current);
}

/** Splits a schema file into statements; the files keep semicolons out of strings and comments. */
export function statements(sql: string): string[] {
  return sql
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('--'))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
