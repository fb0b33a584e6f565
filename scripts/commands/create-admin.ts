/**
 * npm run user:create-admin -- EMAIL [--promote [--reset-password]]
 *
 * Creates the first admin. An existing account is promoted only with --promote, since anyone may
 * have signed up under that address. A password is read from ADMIN_PASSWORD (for automation) or
 * asked for on the terminal without echo.
 */
import readline from "node:readline";
import { Writable } from "node:stream";
import { createAuth } from "../../server/auth/auth";
import {
  AccountExists,
  InvalidAdminInput,
  accountExists,
  createOrPromoteAdmin,
  type AdminResult,
} from "../../server/auth/admin-user";
import { signUpSchema } from "../../server/auth/forms";
import { resolveAuthSecret } from "../../server/auth/secret";
import {
  UsageError,
  parseSingleTargetCommand,
  withCommandDatabase,
  writeLine,
  type CliIo,
  type CliSpec,
} from "../../server/cli";
import { parseConfig, publicUrl } from "../../server/config";

const USAGE = `Usage: npm run user:create-admin -- EMAIL [--promote [--reset-password]]

Makes EMAIL an admin. Without an account, one is created; its password comes from ADMIN_PASSWORD,
or is asked for (at least 8 characters).

An existing account is refused unless you pass --promote: anyone can sign up with any address, so
first check that the account is yours (the refusal shows when it was created). With --promote it
becomes an admin and all its sessions are signed out; its password is kept unless you also pass
--reset-password (then set from ADMIN_PASSWORD or asked for).

Options:
  --promote         make an existing account an admin
  --reset-password  with --promote: also give it a new password
  -h, --help        show this help`;

interface Command {
  email: string;
  promote: boolean;
  resetPassword: boolean;
}

function parse(argv: string[]): Command | "help" {
  const command = parseSingleTargetCommand(argv, "EMAIL", {
    promote: { type: "boolean", default: false },
    "reset-password": { type: "boolean", default: false },
  });
  if (command === "help") return command;
  const email = signUpSchema.shape.email.safeParse(command.target);
  if (!email.success) throw new UsageError(`"${command.target}" is not an email address.`);
  const promote = command.values.promote === true;
  const resetPassword = command.values["reset-password"] === true;
  if (resetPassword && !promote) throw new UsageError("--reset-password works only together with --promote.");
  return { email: email.data, promote, resetPassword };
}

/** What happened, every change and every thing left alone, one sentence a line. */
function report(email: string, result: AdminResult, { passwordFromEnv }: { passwordFromEnv: boolean }): string {
  if (result.kind === "created") return `Created the admin account ${email}. Sign in at /login.`;
  if (result.kind === "already-admin") return `${email} is already an admin; nothing changed.`;
  const created = result.createdAt.toISOString().slice(0, 10);
  const sessions = result.sessionsRevoked === 1 ? "1 session" : `${result.sessionsRevoked} sessions`;
  const unused = passwordFromEnv ? "ADMIN_PASSWORD was not used; " : "";
  return [
    result.wasAdmin
      ? `${email} was already an admin. The account was created on ${created}.`
      : `${email} is now an admin (it was not). The account was created on ${created}.`,
    result.sessionsRevoked > 0 ? `Signed out its ${sessions}; it must sign in again.` : "It had no sessions.",
    result.passwordChanged
      ? "Password changed. Name and email unchanged."
      : `Password unchanged (${unused}pass --reset-password to set a new one). Name and email unchanged.`,
  ].join("\n");
}

/** Reads a line from the terminal without echoing it; from a pipe, just the first line. */
async function askPassword(io: CliIo, prompt: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) io.stdout.write(chunk);
      done();
    },
  });
  const rl = readline.createInterface({ input: io.stdin, output, terminal: io.stdin.isTTY });
  try {
    return await new Promise<string>((resolve) => {
      rl.question(prompt, (answer) => resolve(answer));
      rl.once("close", () => resolve(""));
      muted = true;
    });
  } finally {
    rl.close();
    if (io.stdin.isTTY) io.stdout.write("\n");
  }
}

async function run({ email, promote, resetPassword }: Command, io: CliIo): Promise<number> {
  const config = parseConfig(io.env);
  try {
    return await withCommandDatabase(config, async (db) => {
      const auth = createAuth({ db, secret: resolveAuthSecret(config), baseURL: publicUrl(config) });
      const fromEnv = io.env.ADMIN_PASSWORD;
      let password = fromEnv;
      const needsPassword = resetPassword || !(await accountExists(db, email));
      if (!password && needsPassword) {
        password = await askPassword(io, `Password for ${email} (at least 8 characters): `);
      }
      const result = await createOrPromoteAdmin(auth, db, { email, password, promote, resetPassword });
      writeLine(io.stdout, report(email, result, { passwordFromEnv: Boolean(fromEnv) }));
      return 0;
    });
  } catch (error) {
    if (error instanceof AccountExists) {
      writeLine(io.stderr, error.message);
      return 1;
    }
    if (error instanceof InvalidAdminInput) throw new UsageError(error.message);
    throw error;
  }
}

export const createAdminCommand: CliSpec<Command> = { usage: USAGE, failure: "Could not create the admin", parse, run };
