// Preloaded into a service process (`--import`) by tests that ask which packages it loaded:
// on exit it writes the files of every CommonJS module it loaded (ES modules that import a
// CommonJS package load it through the same cache) to $LOADED_MODULES_FILE.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const Module = require('node:module');
process.on('exit', () => {
  if (process.env.LOADED_MODULES_FILE)
    writeFileSync(process.env.LOADED_MODULES_FILE, JSON.stringify(Object.keys(Module._cache)));
});
