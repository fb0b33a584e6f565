import type { AppError } from "../../server/errors";

/** The application error a promise rejects with; fails the test if it resolves instead. */
export async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!error) throw new Error("expected a rejection");
  return error as AppError;
}
