import path from "node:path";
import { getConfig, type Config } from "../config";
import { createLocalPrivateStore, type PrivateStore } from "./private-store";
import { onFirstUse, s3SettingsOf, type S3Settings } from "./s3-settings";

let current: PrivateStore | undefined;

/** The bucket's `private/` folder when S3_BUCKET is set, else DATA_DIR/private. */
export function getPrivateStore(): PrivateStore {
  current ??= privateStoreFor(getConfig());
  return current;
}

/** A new private store for `config`: a command-line tool's, read from the environment it was given. */
export function privateStoreFor(config: Config): PrivateStore {
  const s3 = s3SettingsOf(config);
  return s3 ? lazyS3PrivateStore(s3) : createLocalPrivateStore(path.join(config.dataDir, "private"));
}

/** The S3 driver, loaded on first use so that a site on DATA_DIR never loads the AWS SDK. */
function lazyS3PrivateStore(settings: S3Settings): PrivateStore {
  const load = onFirstUse(async () => {
    const [{ createS3PrivateStore }, { sharedS3Client }] = await Promise.all([
      import("./s3-private-store"),
      import("./s3"),
    ]);
    return createS3PrivateStore({ client: sharedS3Client(settings), bucket: settings.bucket, prefix: settings.prefix });
  });
  return {
    put: async (key, bytes) => (await load()).put(key, bytes),
    get: async (key) => (await load()).get(key),
    delete: async (key) => (await load()).delete(key),
  };
}
