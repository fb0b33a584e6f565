/** Helpers shared by the command-line tools under scripts/. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { Config } from "./config";
import { databaseOptionsFromConfig, openDatabase, type Database } from "./db/client";

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

/**
 * What a command reads and writes: the real process's streams and environment from runCli, or
 * strings in a test (tests/setup/cli.ts runCommand), so that a command runs in-process.
 */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export interface CliSpec<C> {
  usage: string;
  /** Prefix of the one-line message for a fatal error, e.g. "Import failed". */
  failure: string;
  /** The parsed command, or "help"; throws UsageError for bad arguments. */
  parse(argv: string[]): C | "help";
  /** Runs the command and returns the exit code; reads and writes nothing of the process but `io`. */
  run(command: C, io: CliIo): Promise<number>;
  /** Errors that end the command quietly (a closed pipe, say). */
  isQuiet?(error: unknown): boolean;
}

/** What console.log and console.error would print, to a stream of the command's own. */
export function writeLine(stream: NodeJS.WritableStream, text: string): void {
  stream.write(`${text}\n`);
}

/**
 * The shared shape of the command-line tools: --help prints the usage (exit 0), a usage error
 * prints itself and the usage (exit 1), a fatal error prints one line (exit 1), else the command's
 * own exit code, which this returns.
 */
export async function executeCli<C>(spec: CliSpec<C>, argv: string[], io: CliIo): Promise<number> {
  try {
    let command: C | "help";
    try {
      command = spec.parse(argv);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      writeLine(io.stderr, `${error.message}\n\n${spec.usage}`);
      return 1;
    }
    if (command === "help") {
      writeLine(io.stdout, spec.usage);
      return 0;
    }
    return await spec.run(command, io);
  } catch (error) {
    if (spec.isQuiet?.(error)) return 0;
    writeLine(io.stderr, `${spec.failure}: ${describeError(error)}`);
    return 1;
  }
}

/**
 * A command as its scripts/*.ts entry point runs it: on the process's own streams and
 * environment, its result the process's exit code.
 */
export function runCli<C>(spec: CliSpec<C>, argv = process.argv.slice(2)): Promise<void> {
  const { isQuiet } = spec;
  // A reader that stops early (`| head`) closes the pipe: an error the command calls quiet ends
  // nothing, any other is the crash it always was.
  if (isQuiet)
    process.stdout.on("error", (error) => {
      if (!isQuiet(error)) throw error;
    });
  const io: CliIo = { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  return executeCli(spec, argv, io).then((code) => {
    process.exitCode = code;
  });
}

/**
 * Opens the database `config` names (DATABASE_URL, else the embedded one in DATA_DIR), brings its
 * schema up to date, runs `work` on it and closes it however `work` ends. A command's own handle,
 * never the process-wide one (server/db connectDatabase): a run inside a test leaves no connection
 * behind.
 */
export async function withCommandDatabase<T>(config: Config, work: (db: Database) => Promise<T>): Promise<T> {
  const handle = await openDatabase(databaseOptionsFromConfig(config));
  try {
    await handle.migrate();
    return await work(handle.db);
  } finally {
    await handle.close();
  }
}

type OptionSpecs = NonNullable<Parameters<typeof parseArgs>[0]>["options"];

/**
 * Parses a command line of options only (no positional) with node's parseArgs, -h/--help
 * included: "help" when asked, else the option values; every mistake (an unknown option, a
 * missing value, a stray argument) is a UsageError naming it. `{}` for a command that takes none.
 */
export function parseOptionsCommand<const O extends NonNullable<ParseArgsConfig["options"]>>(
  argv: string[],
  options: O,
): OptionValues<O> | "help" {
  let values: Record<string, unknown>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { ...options, help: { type: "boolean", short: "h", default: false } },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return "help";
  return values as OptionValues<O>;
}

/** The values node's parseArgs gives for `options`, typed from them. */
type OptionValues<O extends NonNullable<ParseArgsConfig["options"]>> = ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true }>
>["values"];

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
