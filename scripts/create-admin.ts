/**
 * npm run user:create-admin -- EMAIL
 *
 * Creates the first admin, or promotes an existing account to admin. A new account's password is
 * read from ADMIN_PASSWORD (for automation) or asked for on the terminal without echo.
 */
import readline from "node:readline";
import { Writable } from "node:stream";
import { createAuth } from "../server/auth/auth";
import { InvalidAdminInput, accountExists, createOrPromoteAdmin } from "../server/auth/admin-user";
import { signUpSchema } from "../server/auth/forms";
import { resolveAuthSecret } from "../server/auth/secret";
import { UsageError, parseSingleTargetCommand, runCli } from "../server/cli";
import { getConfig, publicUrl } from "../server/config";
import { connectDatabase, disconnectDatabase } from "../server/db";
import { databaseOptionsFromConfig, openDatabase } from "../server/db/client";

const USAGE = `Usage: npm run user:create-admin -- EMAIL

Makes EMAIL an admin. An existing account is promoted (its password is kept); otherwise a new
account is created. Its password comes from ADMIN_PASSWORD, or is asked for (at least 8 characters).

Options:
  -h, --help  show this help`;

function parse(argv: string[]) {
  const command = parseSingleTargetCommand(argv, "EMAIL", {});
  if (command === "help") return command;
  const email = signUpSchema.shape.email.safeParse(command.target);
  if (!email.success) throw new UsageError(`"${command.target}" is not an email address.`);
  return { email: email.data };
}

/** Reads a line from the terminal without echoing it; from a pipe, just the first line. */
async function askPassword(prompt: string): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (!muted) process.stdout.write(chunk);
      done();
    },
  });
  const rl = readline.createInterface({ input: process.stdin, output, terminal: process.stdin.isTTY });
  try {
    return await new Promise<string>((resolve) => {
      rl.question(prompt, (answer) => resolve(answer));
      rl.once("close", () => resolve(""));
      muted = true;
    });
  } finally {
    rl.close();
    if (process.stdin.isTTY) process.stdout.write("\n");
  }
}

async function run({ email }: { email: string }): Promise<number> {
  const config = getConfig();
  const handle = await connectDatabase(await openDatabase(databaseOptionsFromConfig(config)));
  try {
    await handle.migrate();
    const auth = createAuth({
      db: handle.db,
      secret: resolveAuthSecret(config),
      baseURL: publicUrl(config),
    });
    let password = process.env.ADMIN_PASSWORD;
    if (!password && !(await accountExists(handle.db, email))) {
      password = await askPassword(`Password for ${email} (at least 8 characters): `);
    }
    const result = await createOrPromoteAdmin(auth, handle.db, { email, password });
    const messages = {
      created: `Created the admin account ${email}. Sign in at /login.`,
      promoted: `${email} is now an admin (password unchanged).`,
      "already-admin": `${email} is already an admin; nothing changed.`,
    };
    console.log(messages[result]);
    return 0;
  } catch (error) {
    if (error instanceof InvalidAdminInput) throw new UsageError(error.message);
    throw error;
  } finally {
    await disconnectDatabase();
  }
}

void runCli({ usage: USAGE, failure: "Could not create the admin", parse, run });
