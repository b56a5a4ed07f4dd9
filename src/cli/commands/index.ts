import type { CommandModule } from 'yargs';
import { stemCommand } from './stem.js';
import { demoCommand } from './demo.js';
import { extractCommand } from './extract.js';
import { markupCommand } from './markup.js';
import { robotsCommand } from './robots.js';
import { fetchCommand } from './fetch.js';
import { seedCommand } from './seed.js';
import { importCommand } from './import.js';
import { keywordsCommand } from './keywords.js';
import { mixCommand } from './mix.js';
import { pickCommand } from './pick.js';
import { exportCommand } from './export.js';
import { harvestCommand } from './harvest.js';
import { statsCommand } from './stats.js';
import { whyCommand } from './why.js';

/** Every command of the CLI, in the order `anwc --help` lists them. Add one line per command. */
export const COMMANDS: CommandModule<any, any>[] = [
  demoCommand,
  stemCommand,
  extractCommand,
  markupCommand,
  robotsCommand,
  fetchCommand,
  seedCommand,
  harvestCommand,
  statsCommand,
  whyCommand,
  importCommand,
  keywordsCommand,
  mixCommand,
  pickCommand,
  exportCommand,
];
