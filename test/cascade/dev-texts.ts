import { readFileSync } from 'node:fs';

export interface FixtureText {
  readonly id: string;
  readonly url: string;
  readonly text: string;
}

/** Ten English texts of the dev pages (MIT, test/fixtures/cascade/LICENSE). */
export const devTexts: readonly FixtureText[] = JSON.parse(
  readFileSync(new URL('../fixtures/cascade/dev-texts.json', import.meta.url), 'utf8'),
) as FixtureText[];
