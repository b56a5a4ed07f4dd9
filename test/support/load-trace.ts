import { register } from 'node:module';

/**
 * Loaded with `node --import` into a CLI process a test watches: every module the process
 * imports is written to the file ANWC_TEST_LOADS names (by hooks that run beside the loader).
 */
const file = process.env.ANWC_TEST_LOADS;
if (file) register('./load-hooks.js', { parentURL: import.meta.url, data: { file } });
