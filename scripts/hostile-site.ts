/** Serves the hostile site (test/helpers/hostile-site.ts) until Ctrl-C: `npx tsx scripts/hostile-site.ts`. */
import { startHostileSite } from '../test/helpers/hostile-site.js';

{
  const site = await startHostileSite();
  const families = new Map<string, number>();
  for (const e of site.expectations) families.set(e.family, (families.get(e.family) ?? 0) + 1);
  process.stdout.write(`hostile site: ${site.url} (other host ${site.hostAltUrl}), ${site.expectations.length} routes\n`);
  for (const [f, n] of families) process.stdout.write(`  ${f}: ${n}\n`);
  process.stdout.write('Ctrl-C to stop (stops by itself after 15 minutes)\n');
  process.on('SIGINT', () => void site.close().then(() => process.exit(0)));
}
