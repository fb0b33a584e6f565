/**
 * Hydrates its child in a task of its own, after the rest of the page
 * (docs/decisions/024-preact-in-the-browser.md, "Hydration cost").
 *
 * Preact hydrates a whole page in one task; on a results page that was one 300 to 400 ms block
 * under Lighthouse's 4x CPU slowdown, all of it Total Blocking Time. Wrapped in this, a result
 * card keeps the server's HTML (its links work as plain links) while the page hydrates, then
 * hydrates alone: one short task per card instead of one long one for the page. React DOM
 * (the server, dev mode, `BROWSER_REACT=1`) slices its hydration itself, so there this renders
 * its child alone, with no Suspense boundary around it.
 *
 * The child must render exactly one element: that is what Preact keeps from the server's HTML
 * while it waits.
 */
import { Suspense, useState, type ReactElement } from "react";
import { hydration } from "../../lib/preact/hydrating";

interface Turn {
  done: boolean;
  promise: Promise<void>;
}

const waiting: (() => void)[] = [];
let channel: MessageChannel | undefined;

/**
 * One waiting child per task. The task sets `hydration.active`, so the child's first render
 * reads server snapshots and adopts the server's ids as the page's first render did; the next
 * task clears it. A MessageChannel task runs right after the current one (setTimeout waits 4 ms
 * once nested).
 */
function nextTask(): void {
  hydration.active = false;
  const release = waiting.shift();
  if (!release) {
    // The whole page is hydrated: browser tests wait for this before they click.
    document.documentElement.dataset.hydrated = "";
    return;
  }
  hydration.active = true;
  release();
  channel?.port2.postMessage(null);
}

function waitForTurn(): Turn {
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = nextTask;
  }
  if (waiting.length === 0) channel.port2.postMessage(null);
  const turn: Turn = { done: false, promise: Promise.resolve() };
  turn.promise = new Promise<void>((resolve) =>
    waiting.push(() => {
      turn.done = true;
      resolve();
    }),
  );
  return turn;
}

function Deferred({ children }: { children: ReactElement }) {
  // Only Preact's hydration sets the flag (app/lib/preact/react-dom-client.ts).
  const [turn] = useState(() => (hydration.active ? waitForTurn() : null));
  if (turn && !turn.done) throw turn.promise;
  return children;
}

export function HydrateInTurn({ children }: { children: ReactElement }) {
  // React DOM renders a Suspense boundary into the HTML (and may stream it out of order, shown
  // late by a script): without Preact, no boundary at all.
  if (!hydration.inTurns) return children;
  return (
    <Suspense fallback={null}>
      <Deferred>{children}</Deferred>
    </Suspense>
  );
}
