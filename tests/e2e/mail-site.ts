import { afterAll, beforeAll } from "vitest";
import { startBuiltSite, type RunningSite } from "../../scripts/lib/serve-built";
import { startSmtpSink, type ReceivedMail, type SmtpSink } from "../setup/smtp";

/**
 * A site of this test file's own whose email goes over SMTP to a server the file starts, for
 * tests that read what the site mails (the shared site writes .eml files no test reads). The
 * global setup has built the site already. Started in beforeAll and stopped in afterAll; use the
 * getters inside tests. Skipped with E2E_BASE_URL (a remote site sends its mail elsewhere).
 */
export function mailingSiteForThisFile(
  prepare: (dataDir: string) => Promise<void>,
  /** More environment for the site (TEST_CLOCK_FILE, say). */
  env: Record<string, string> = {},
) {
  let site: RunningSite | undefined;
  let sink: SmtpSink | undefined;
  beforeAll(async () => {
    if (process.env.E2E_BASE_URL) return;
    sink = await startSmtpSink();
    site = await startBuiltSite({ env: { ...env, SMTP_URL: sink.url }, prepare });
  }, 180_000);
  afterAll(async () => {
    await site?.stop();
    await sink?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (!value) throw new Error("The mailing site starts in beforeAll: use it inside tests");
    return value;
  };
  return {
    base: () => started(site).baseUrl,
    /** The first message to `address` whose subject matches. */
    mailTo: (address: string, subject: RegExp): ReceivedMail | undefined =>
      started(sink).received.find((m) => m.recipients.includes(address) && subject.test(m.mail.subject ?? "")),
    /** Every message to `address` whose subject matches. */
    mailsTo: (address: string, subject: RegExp): ReceivedMail[] =>
      started(sink).received.filter((m) => m.recipients.includes(address) && subject.test(m.mail.subject ?? "")),
  };
}
