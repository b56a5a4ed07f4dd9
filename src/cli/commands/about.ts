/**
 * What `anwc --help` lists: each command's usage and one line about it, kept apart from the
 * commands themselves so that listing them, or running one, loads no other command's code.
 */
export const ABOUT = {
  demo: {
    command: 'demo',
    describe: 'Offline demo: a local web of our own writing, import → seed → harvest → export, then the wheel',
  },
  import: {
    command: 'import <files..>',
    describe: 'Store the author nodes and meta words of ANE markup files (an edited file replaces its old nodes)',
  },
  keywords: {
    command: 'keywords',
    describe: 'List the meta words with their stems, node counts and when each was last searched',
  },
  seed: {
    command: 'seed',
    describe: 'Find root URLs for the meta words of the imported author nodes (one AND query per meta set)',
  },
  harvest: {
    command: 'harvest',
    describe: 'Walk the frontier with the roulette wheel and store the narrative nodes found (resumes where the last run stopped)',
  },
  stats: {
    command: 'stats',
    describe: 'Show what the database holds: nodes, links by status and outcome, failures, the wheel, recent runs',
  },
  'why-node': {
    command: 'why-node <id>',
    describe: 'Say why a node is linked to its meta words: the word itself, the topic profile terms it shares, the score; or why it is on no topic',
  },
  why: {
    command: 'why <url>',
    describe: 'Say why a URL was or was not walked: its outcome, the constraint, robots rule or error that decided, and how it was found',
  },
  mix: {
    command: 'mix [proportion]',
    describe: `Show or set proportion_of_crawler_node: the share of picks that come from crawler nodes (0 to 1)`,
  },
  pick: {
    command: 'pick <word>',
    describe: 'Pick the node the narrative engine would show for a word, mixing author and crawler nodes (anwc mix)',
  },
  export: {
    command: 'export',
    describe: 'Write stored nodes as ANE markup (readable by anwc import and the engine), JSON lines or CSV',
  },
  extract: {
    command: 'extract <file>',
    describe: 'Show the blocks of an HTML file (or - for stdin) and which ones read as narrative',
  },
  markup: {
    command: 'markup <command>',
    describe: 'Check or format ANE markup (the author\'s sections, nodes and meta words)',
  },
  walk: {
    command: 'walk <urls..>',
    describe: 'Walk the web from the given URLs with an activity: its constraints choose the pages, its actions act on them',
  },
  map: {
    command: 'map <urls..>',
    describe: 'Map the pages under the given URLs: the discovery tree and every link, as HTML, DOT, GraphML, GEXF, JSON or SVG',
  },
  locate: {
    command: 'locate <urls..>',
    describe: 'Find the documents about some words under the given URLs: a ranked table of score, URL, title and matched words',
  },
  archive: {
    command: 'archive [urls..]',
    describe: 'Copy the pages under the given URLs to a folder that browses offline, with a WARC file and its CDXJ index beside it',
  },
  serve: {
    command: 'serve',
    describe: 'The author\'s studio in a browser: the evolving page, curation of foreign text, the mix, seeding and live harvests',
  },
  maintain: {
    command: 'maintain [instructions]',
    describe: 'Check the links of an infostructure (MOMspider): walk it from its top, test every reference once, report moved, broken, modified and expiring documents',
  },
  activity: {
    command: 'activity <command>',
    describe: 'List, show or check W4 activities (strategy + constraints + actions, in the paper\'s form or JSON)',
  },
  robots: {
    command: 'robots <file> <token> <urls..>',
    describe: 'Check URLs against a robots.txt file as the crawler would (exit 1 if any is disallowed)',
  },
  fetch: {
    command: 'fetch <url>',
    describe: 'Fetch one URL as the crawler would and show everything about it (exit 1 unless 2xx/304)',
  },
  stem: {
    command: 'stem [words..]',
    describe: 'Print the Porter stem of each word (from the arguments, or stdin one a line)',
  },
  config: {
    command: 'config <action>',
    describe: 'Show every option with the value a command would use and where it came from (flag, environment, default)',
  },
} as const;

export type CommandName = keyof typeof ABOUT;
