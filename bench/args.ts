// Reading the bench scripts' arguments: a word where a count belongs (say a binary's path passed
// first) would otherwise become NaN, and a run would print NaN figures after minutes of work.

/** The value after `--name` on the command line (`--only TEXT`), or undefined. */
export function optionArg(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
}

/**
 * The whole number at `process.argv[position]`, `fallback` when it is absent. Anything else exits
 * with status 2 and a line naming the argument, what was given and the script's usage.
 */
export function countArg(position: number, name: string, fallback: number, usage: string, minimum = 1): number {
  return checkedCount(process.argv[position], name, fallback, usage, minimum);
}

/** countArg for a named option (`--cold-runs 5`). */
export function countOption(name: string, fallback: number, usage: string, minimum = 1): number {
  return checkedCount(optionArg(name), name, fallback, usage, minimum);
}

function checkedCount(given: string | undefined, name: string, fallback: number, usage: string, minimum: number): number {
  if (given === undefined) return fallback;
  const value = Number(given);
  if (given.trim() === "" || !Number.isInteger(value) || value < minimum) {
    console.error(`${name} must be a whole number of at least ${minimum}; got ${JSON.stringify(given)}.\nUsage: ${usage}`);
    process.exit(2);
  }
  return value;
}
