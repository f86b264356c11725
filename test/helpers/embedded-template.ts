// `node --import tsx test/helpers/embedded-template.ts DIR`: creates an empty embedded cluster in
// DIR/db once per test run. Test servers start from a copy of it instead of running initdb each
// (a second or more apiece on a busy machine); each still runs its own embedded server.
import { initialiseEmbedded } from '../../src/db/embedded.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: embedded-template.ts DIR');
await initialiseEmbedded(dir);
