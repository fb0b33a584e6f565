import { logger } from "../logger";

/**
 * Account work whose duration would tell a visitor whether an address has an account: looking
 * the account up, writing a reset token, creating the account, queueing its email. Sign-up and
 * "Forgot password?" only queue it here and answer at once, with the same answer and the same
 * work on the request for every address (docs/operations.md, "Account recovery" and "Sign-in,
 * sign-up and redirects"). It runs in this process just after; if the process dies in between,
 * nothing was written and the person asks again. Shutdown waits for it (server/app.ts).
 */
export type AccountTask = () => Promise<void>;
export type AccountWorkRunner = (label: string, task: AccountTask) => void;

const pending = new Set<Promise<void>>();

const inThisProcess: AccountWorkRunner = (label, task) => {
  // setImmediate: the answer is on its way before the task's first query.
  const run: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(task)
    .catch((error: unknown) => logger.error({ err: error, task: label }, "account work failed"))
    .finally(() => pending.delete(run));
  pending.add(run);
};

let runner: AccountWorkRunner = inThisProcess;

/** Queues `task` to run after this request's answer; its failure is logged, never shown. */
export function afterAnswer(label: string, task: AccountTask): void {
  runner(label, task);
}

/** Resolves once every queued task has finished (shutdown, before the database closes; tests). */
export async function settleAccountWork(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}

/** For tests: a runner that holds the tasks, to look at what the request alone did; none restores ours. */
export function runAccountWorkWith(next?: AccountWorkRunner): void {
  runner = next ?? inThisProcess;
}
