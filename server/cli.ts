import { parseArgs } from "node:util";
/** Helpers shared by the command-line tools under scripts/. */

/**
 * One line for a fatal error. Node reports a refused connection to a host with several addresses
 * as an AggregateError with an empty message, so its inner errors are used instead.
 */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.message) return error.message;
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(describeError).join("; ");
  const code = (error as NodeJS.ErrnoException).code;
  return code ? `${error.name} (${code})` : error.name;
}

/** A mistake on the command line: printed with the usage text, exit code 1. */
export class UsageError extends Error {
  override name = "UsageError";
}

export interface CliSpec<C> {
  usage: string;
  /** Prefix of the one-line message for a fatal error, e.g. "Import failed". */
  failure: string;
  /** The parsed command, or "help"; throws UsageError for bad arguments. */
  parse(argv: string[]): C | "help";
  /** Runs the command and returns the exit code. */
  run(command: C): Promise<number>;
  /** Errors that end the command quietly (a closed pipe, say). */
  isQuiet?(error: unknown): boolean;
}

/**
 * The shared shape of the command-line tools: --help prints the usage (exit 0), a usage error
 * prints itself and the usage (exit 1), a fatal error prints one line (exit 1), else the command's
 * own exit code.
 */
export function runCli<C>(spec: CliSpec<C>, argv = process.argv.slice(2)): Promise<void> {
  const main = async (): Promise<number> => {
    let command: C | "help";
    try {
      command = spec.parse(argv);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      console.error(`${error.message}\n\n${spec.usage}`);
      return 1;
    }
    if (command === "help") {
      console.log(spec.usage);
      return 0;
    }
    return spec.run(command);
  };
  return main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      if (spec.isQuiet?.(error)) return;
      console.error(`${spec.failure}: ${describeError(error)}`);
      process.exitCode = 1;
    },
  );
}

type OptionSpecs = NonNullable<Parameters<typeof parseArgs>[0]>["options"];

/**
 * Parses a command line of options plus exactly one `positional` (FILE, DIR) with node's
 * parseArgs: "help" for -h/--help, else the option values and the positional; every mistake is a
 * UsageError naming it.
 */
export function parseSingleTargetCommand(argv: string[], positional: string, options: NonNullable<OptionSpecs>) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { ...options, help: { type: "boolean", short: "h", default: false } },
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { positionals } = parsed;
  const values = parsed.values as Record<string, string | boolean | (string | boolean)[] | undefined>;
  if (values.help) return "help" as const;
  if (positionals.length === 0) throw new UsageError(`Missing ${positional}.`);
  if (positionals.length > 1) {
    throw new UsageError(`Expected one ${positional}, got ${positionals.length}: ${positionals.join(" ")}`);
  }
  return { target: positionals[0]!, values };
}
