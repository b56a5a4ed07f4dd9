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
import { configCommand } from './config.js';
import { activityCommand } from './activity.js';
import { walkCommandModule } from './walk.js';
import { archiveCommand } from './archive.js';
import { locateCommand } from './locate.js';
import { mapCommand } from './map.js';
import { maintainCommand } from './maintain.js';

/**
 * Every command of the CLI, in the order `anwc --help` lists them: the pipeline first (import →
 * seed → harvest → feed), then the tools that look at one piece of it. Add one line per command.
 */
export const COMMANDS: CommandModule<any, any>[] = [
  demoCommand,
  importCommand,
  keywordsCommand,
  seedCommand,
  harvestCommand,
  statsCommand,
  whyCommand,
  mixCommand,
  pickCommand,
  exportCommand,
  extractCommand,
  markupCommand,
  walkCommandModule,
  mapCommand,
  locateCommand,
  archiveCommand,
  maintainCommand,
  activityCommand,
  robotsCommand,
  fetchCommand,
  stemCommand,
  configCommand,
];
