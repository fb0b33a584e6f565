import type { DatabaseHandle } from "../db/client";
import { getConfig } from "../config";
import { INSTANCE_ID } from "./channel";
import { listenForLocationChanges, type LocationsListener } from "./listener";
import { applyCatalogueChanges, refreshSearchIndex, startFromSnapshot, keepSnapshotsIn } from "./refresh";

let listener: LocationsListener | undefined;

/**
 * Start-up (server/app.ts `boot`): reads the index from its snapshot when there is a usable one
 * (`snapshotFile`, docs/operations.md "Search index"), else builds it from the database; and on
 * PostgreSQL starts listening for other instances' writes. On PGlite only this process can write,
 * so there is nobody to listen to.
 */
export async function startSearch(
  handle: Pick<DatabaseHandle, "db" | "kind">,
  options: { snapshotFile?: string } = {},
): Promise<void> {
  keepSnapshotsIn(options.snapshotFile);
  const fromSnapshot = options.snapshotFile ? await startFromSnapshot(handle.db, options.snapshotFile) : undefined;
  if (!fromSnapshot) await refreshSearchIndex(handle.db);
  const url = getConfig().DATABASE_URL;
  if (handle.kind === "postgres" && url && !listener) {
    listener = listenForLocationChanges({
      connectionString: url,
      // Another instance's write, or a reconnection: the change log says what to apply.
      onChange: () => applyCatalogueChanges(handle.db),
      debounceMs: 50,
      maxWaitMs: 250,
      ignorePayload: INSTANCE_ID,
    });
  }
}

/** Closes the listener's connection (shutdown). */
export async function stopSearch(): Promise<void> {
  const current = listener;
  listener = undefined;
  await current?.stop();
}
