// A misuse that must not type-check (tests/it/npm_package.rs): a report's field read as what it is not.

import { convert } from 'ois-cli';

export async function misuse(): Promise<number> {
  const converted = await convert('coins.yaml');
  return converted.ois.title; // MISUSE: a title is a string
}
