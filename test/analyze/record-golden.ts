/**
 * Records fixtures/golden-analyses.json from the current analyzeText (run only from a build whose
 * outputs are the reference): npx tsx test/analyze/record-golden.ts
 */
import { writeFileSync } from 'node:fs';
import { GOLDEN_FILE, goldenInputs, goldenLine } from './golden-cases.js';

const out: Record<string, string> = {};
for (const [name, text] of goldenInputs()) out[name] = goldenLine(text);
writeFileSync(GOLDEN_FILE, `${JSON.stringify(out, null, 0).replace(/","/g, '",\n"')}\n`);
console.log(`recorded ${Object.keys(out).length} inputs to ${GOLDEN_FILE}`);
