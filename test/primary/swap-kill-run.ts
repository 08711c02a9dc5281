/**
 * Child process of primary-swap.test.ts: opens a pipeline with the primary swap on and commits the
 * pages given as JSON in argv[3] (in order) into the data folder argv[2]. With NEARDUP_FAULT_FREEZE
 * set to `1:swap` it freezes right after the swap committed, before any corpus line (the test kills it).
 */
import { loadConfig } from '../../src/config.js';
import { Pipeline } from '../../src/pipeline.js';
import type { PageInput } from '../../src/types.js';

const [dataDir, pagesJson] = process.argv.slice(2) as [string, string];
const pipeline = await Pipeline.open({ dataDir, config: loadConfig({ env: {} }), primarySwap: true });
for (const page of JSON.parse(pagesJson) as PageInput[]) await pipeline.process(page);
await pipeline.close();
process.stdout.write('done\n');
