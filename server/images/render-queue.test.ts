import { describe, expect, it } from "vitest";
import { RenderQueueFullError, createRenderQueue } from "./render-queue";

/** A task the test finishes by hand, counting how many run at once. */
function tasks() {
  let running = 0;
  let peak = 0;
  const started: string[] = [];
  const finish = new Map<string, (value: string) => void>();
  const fail = new Map<string, (error: Error) => void>();
  const make = (name: string) => () => {
    running++;
    peak = Math.max(peak, running);
    started.push(name);
    return new Promise<string>((resolve, reject) => {
      finish.set(name, (value) => (running--, resolve(value)));
      fail.set(name, (error) => (running--, reject(error)));
    });
  };
  return { make, started, finish, fail, peak: () => peak };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe("createRenderQueue", () => {
  it("runs at most `concurrency` at once, in order, and refuses beyond `maxWaiting`", async () => {
    const queue = createRenderQueue({ concurrency: 2, maxWaiting: 2, retryAfterSeconds: 7 });
    const t = tasks();
    const results = ["a", "b", "c", "d"].map((k) => queue.run(k, t.make(k)));
    const refused = queue.run("e", t.make("e"));
    await expect(refused).rejects.toBeInstanceOf(RenderQueueFullError);
    await expect(refused).rejects.toMatchObject({ retryAfterSeconds: 7 });
    await flush();
    expect(t.started).toEqual(["a", "b"]);
    expect([queue.running, queue.waiting]).toEqual([2, 2]);

    t.finish.get("a")!("A");
    await flush();
    expect(t.started).toEqual(["a", "b", "c"]);
    // A slot is waiting again, so a new key is accepted.
    const f = queue.run("f", t.make("f"));
    for (const k of ["b", "c"]) t.finish.get(k)!(k.toUpperCase());
    await flush();
    for (const k of ["d", "f"]) t.finish.get(k)!(k.toUpperCase());
    expect(await Promise.all([...results, f])).toEqual(["A", "B", "C", "D", "F"]);
    expect(t.peak()).toBe(2);
    expect([queue.running, queue.waiting]).toEqual([0, 0]);
  });

  it("shares the work of a key running or waiting, even when full, and runs it again once done", async () => {
    const queue = createRenderQueue({ concurrency: 1, maxWaiting: 1 });
    const t = tasks();
    const first = queue.run("x", t.make("x"));
    const waiting = queue.run("y", t.make("y"));
    expect(queue.run("x", t.make("x-again"))).toBe(first);
    expect(queue.run("y", t.make("y-again"))).toBe(waiting);
    await flush();
    t.finish.get("x")!("X");
    await flush();
    t.finish.get("y")!("Y");
    expect(await Promise.all([first, waiting])).toEqual(["X", "Y"]);
    expect(t.started).toEqual(["x", "y"]);
    const later = queue.run("x", t.make("x-later"));
    await flush();
    t.finish.get("x-later")!("X2");
    expect(await later).toBe("X2");
  });

  it("passes a failure to every caller of the key and frees the slot", async () => {
    const queue = createRenderQueue({ concurrency: 1, maxWaiting: 0 });
    const t = tasks();
    const a = queue.run("a", t.make("a"));
    const same = queue.run("a", t.make("a2"));
    await flush();
    t.fail.get("a")!(new Error("bad image"));
    await expect(a).rejects.toThrow("bad image");
    await expect(same).rejects.toThrow("bad image");
    const thrower = queue.run("sync", () => {
      throw new Error("thrown at once");
    });
    await expect(thrower).rejects.toThrow("thrown at once");
    expect(queue.running).toBe(0);
    const b = queue.run("b", async () => "B");
    expect(await b).toBe("B");
  });
});
