import { useSyncExternalStore } from "react";
import { isAppleDevice } from "../../lib/directions";

const noSubscription = () => () => {};
const fromBrowser = () => isAppleDevice(navigator.userAgent);
const onServer = () => false;

/** Whether the page runs on an Apple device: false on the server and while hydrating, then the truth. */
export function useAppleDevice(): boolean {
  return useSyncExternalStore(noSubscription, fromBrowser, onServer);
}
