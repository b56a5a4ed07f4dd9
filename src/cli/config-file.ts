import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { CONFIG_FILE } from './config-name.js';
import { suggestion } from '../walk/activity/errors.js';
import { readJson, type JsonNode } from '../walk/activity/json-reader.js';
import type { Pos } from '../walk/activity/spec.js';
import { OPTIONS, type OptionName, type OptionSpec } from './options.js';

/**
 * The configuration file: `anwc.config.json` in the working directory, or the file `--config`
 * names. It holds any option of the option table under its flag name, e.g. `{"delay": 2,
 * "hosts": "*.example.org"}`; a flag or an environment variable still wins over it. An unknown key
 * or a bad value is an error at its file:line:col, checked as the flag would be.
 */


export interface ConfigValue {
  value: unknown;
  at: Pos;
}

export interface ConfigFile {
  path: string;
  values: Map<OptionName, ConfigValue>;
}

/** The configuration to use: the named file (which must exist), else anwc.config.json here if there is one. */
export function loadConfigFile(named: string | undefined, cwd = process.cwd()): ConfigFile | undefined {
  const path = named !== undefined ? resolve(cwd, named) : resolve(cwd, CONFIG_FILE);
  if (named === undefined && !existsSync(path)) return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UserError(`cannot read the configuration file (${(err as NodeJS.ErrnoException).code ?? 'error'})`, { file: named ?? path, fix: 'check the path given to --config' });
  }
  return parseConfig(text, named ?? CONFIG_FILE, path);
}

const NAMES = (Object.keys(OPTIONS) as OptionName[]).filter((n) => n !== 'config');

export function parseConfig(text: string, file: string, path = file): ConfigFile {
  // Editors on Windows save UTF-8 with a BOM; JSON.parse would refuse it as an invisible character.
  const root = readJson(text.replace(/^\ufeff/, ''), file);
  if (root.kind !== 'object') throw bad(file, root.at, 'the configuration is not a JSON object', 'write {"option-name": value, …}');
  const values = new Map<OptionName, ConfigValue>();
  for (const e of root.entries) {
    if (!(NAMES as string[]).includes(e.key)) throw bad(file, e.at, `unknown option ${e.key}`, suggestion(e.key, NAMES));
    const name = e.key as OptionName;
    values.set(name, { value: fromFolder(OPTIONS[name], convert(name, e.value, file), dirname(path)), at: e.value.at ?? e.at });
  }
  return { path, values };
}

function convert(name: OptionName, v: JsonNode, file: string): unknown {
  const spec: OptionSpec = OPTIONS[name];
  const at = v.at ?? { line: 1, col: 1 };
  let value: unknown;
  if (spec.type === 'boolean') {
    if (v.kind !== 'symbol' || (v.value !== 't' && v.value !== 'nil')) throw bad(file, at, `${name} takes true or false`, 'write true or false');
    value = v.value === 't';
  } else if (spec.type === 'number') {
    if (v.kind !== 'number') throw bad(file, at, `${name} takes a number`, 'write a number without quotes');
    value = v.value;
  } else if (spec.type === 'array') {
    const items = v.kind === 'list' ? v.items : [v];
    if (!items.every((x) => x.kind === 'string')) throw bad(file, at, `${name} takes a list of strings`, 'write ["…", "…"]');
    value = items.map((x) => (x as { value: string }).value);
  } else {
    if (v.kind !== 'string') throw bad(file, at, `${name} takes a string`, 'write it in double quotes');
    value = v.value;
  }
  if (spec.choices && !spec.choices.includes(String(value))) throw bad(file, at, `${name} is not one of ${spec.choices.join(', ')}`, `got ${JSON.stringify(value)}`);
  const fix = spec.check?.(value);
  if (fix) throw bad(file, at, `${name} is not valid (got ${JSON.stringify(value)})`, fix);
  return value;
}

/** A relative path written in the file names a place beside the file, not in the working directory. */
function fromFolder(spec: OptionSpec, value: unknown, dir: string): unknown {
  if (typeof value !== 'string' || !spec.path) return value;
  if (spec.path === 'database') {
    const m = /^sqlite:(.+)$/.exec(value);
    return m && m[1] !== ':memory:' ? `sqlite:${resolve(dir, m[1]!)}` : value;
  }
  if (spec.path === 'activity' && !/\.(?:w4|json)$/i.test(value)) return value;
  return resolve(dir, value);
}

function bad(file: string, at: Pos | undefined, message: string, fix: string): UserError {
  return new UserError(message, { file, line: at?.line, col: at?.col, fix });
}
