import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { scriptsAfterFirstPaint } from "./script-priority";

async function through(chunks: (string | Buffer)[]): Promise<string> {
  return text(
    Readable.from(chunks.map((c) => (typeof c === "string" ? Buffer.from(c) : c))).pipe(scriptsAfterFirstPaint()),
  );
}

describe("scriptsAfterFirstPaint", () => {
  it("holds back every module preload and the module script, and leaves the rest of the page alone", async () => {
    const page =
      '<head><link rel="stylesheet" href="/a.css"/><link rel="modulepreload" href="/a.js"/>' +
      '<link rel="modulepreload" href="/b.js"/></head><body><p>&lt;link rel="modulepreload"</p>' +
      '<script type="application/ld+json">{"a":"type=\\"module\\""}</script>' +
      '<script nonce="n" type="module" async="">import "/a.js";</script></body>';
    expect(await through([page])).toBe(
      '<head><link rel="stylesheet" href="/a.css"/><link data-after-paint="modulepreload" fetchpriority="low" href="/a.js"/>' +
        '<link data-after-paint="modulepreload" fetchpriority="low" href="/b.js"/></head><body><p>&lt;link rel="modulepreload"</p>' +
        '<script type="application/ld+json">{"a":"type=\\"module\\""}</script>' +
        '<script nonce="n" type="text/x-after-paint">import "/a.js";</script></body>',
    );
  });

  it("finds a tag cut across chunks at any point, and a character cut across chunks", async () => {
    const page =
      '<p>café</p><link rel="modulepreload" href="/a.js"/><script nonce="n" type="module" async="">1</script><p>end</p>';
    const expected =
      '<p>café</p><link data-after-paint="modulepreload" fetchpriority="low" href="/a.js"/>' +
      '<script nonce="n" type="text/x-after-paint">1</script><p>end</p>';
    const bytes = Buffer.from(page);
    for (let at = 1; at < bytes.length; at++) {
      expect(await through([bytes.subarray(0, at), bytes.subarray(at)])).toBe(expected);
    }
    // One byte at a time.
    expect(await through([...bytes].map((b) => Buffer.from([b])))).toBe(expected);
  });

  it("sends what is written in one turn as one chunk, and what comes in a later turn as another", async () => {
    const stream = scriptsAfterFirstPaint();
    const chunks: string[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk.toString()));
    const ended = new Promise((resolve) => stream.on("end", resolve));
    stream.write("<html><head>");
    stream.write('<link rel="modulepreload" href="/a.js"/>');
    stream.write("</head><body>");
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    stream.write("<p>later</p><link rel=");
    stream.end('"modulepreload" href="/b.js"/></body></html>');
    await ended;
    expect(chunks).toEqual([
      '<html><head><link data-after-paint="modulepreload" fetchpriority="low" href="/a.js"/></head><body>',
      '<p>later</p><link data-after-paint="modulepreload" fetchpriority="low" href="/b.js"/></body></html>',
    ]);
  });

  it("runs onEnd once the page is through", async () => {
    let ended = 0;
    const out = await text(Readable.from([Buffer.from("<html></html>")]).pipe(scriptsAfterFirstPaint(() => ended++)));
    expect(out).toBe("<html></html>");
    expect(ended).toBe(1);
  });
});
