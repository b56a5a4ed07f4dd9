import type { CommandModule } from 'yargs';
import { ABOUT, type CommandName } from './about.js';

/**
 * Every command of the CLI, in the order `anwc --help` lists them: the pipeline first (import →
 * seed → harvest → feed), then the tools that look at one piece of it. Each is loaded only when
 * it runs. Add one line here and one in about.ts per command.
 */
export const COMMANDS: Record<CommandName, () => Promise<CommandModule<any, any>>> = {
  demo: async () => (await import('./demo.js')).demoCommand,
  import: async () => (await import('./import.js')).importCommand,
  keywords: async () => (await import('./keywords.js')).keywordsCommand,
  seed: async () => (await import('./seed.js')).seedCommand,
  harvest: async () => (await import('./harvest.js')).harvestCommand,
  stats: async () => (await import('./stats.js')).statsCommand,
  why: async () => (await import('./why.js')).whyCommand,
  'why-node': async () => (await import('./why-node.js')).whyNodeCommand,
  mix: async () => (await import('./mix.js')).mixCommand,
  pick: async () => (await import('./pick.js')).pickCommand,
  export: async () => (await import('./export.js')).exportCommand,
  extract: async () => (await import('./extract.js')).extractCommand,
  markup: async () => (await import('./markup.js')).markupCommand,
  walk: async () => (await import('./walk.js')).walkCommandModule,
  map: async () => (await import('./map.js')).mapCommand,
  locate: async () => (await import('./locate.js')).locateCommand,
  archive: async () => (await import('./archive.js')).archiveCommand,
  serve: async () => (await import('./serve.js')).serveCommand,
  maintain: async () => (await import('./maintain.js')).maintainCommand,
  activity: async () => (await import('./activity.js')).activityCommand,
  robots: async () => (await import('./robots.js')).robotsCommand,
  fetch: async () => (await import('./fetch.js')).fetchCommand,
  stem: async () => (await import('./stem.js')).stemCommand,
  config: async () => (await import('./config.js')).configCommand,
};

export { ABOUT, type CommandName };
