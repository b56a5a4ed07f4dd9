/** src/demo: the offline demo web of `npm run demo` (its sites live in demo/sites). */
export { DEMO_SEARCH_HOST, startDemoWeb, type DemoWeb, type DemoWebOptions } from './server.js';
export { loadDemoPages, isIndexed, type DemoPage } from './pages.js';
export { DemoSearchIndex, answerApi, DEMO_TIMESTAMP, type SearchHit, type SearchResponse } from './search.js';
export { defaultSitesDir, packageRoot } from './paths.js';
export { demoAgent, isDemoHost } from './agent.js';
