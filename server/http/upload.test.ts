import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rejection } from "../../tests/setup/rejection";
import { filesFrom, readUploadForm, withUploadedFiles } from "./upload";

const LIMITS = { maxFiles: 3, maxFileBytes: 1024, maxTotalBytes: 4096 };

function post(body: BodyInit, headers?: Record<string, string>) {
  return new Request("http://localhost/owner/claim/x", { method: "POST", body, headers });
}

describe("readUploadForm", () => {
  it("reads fields and files, skipping the empty part a browser sends for no file", async () => {
    const form = new FormData();
    form.set("claimantName", "Pat");
    form.append("evidence", new File(["%PDF-1.4"], "a.pdf", { type: "application/pdf" }));
    form.append("evidence", new File([], "", { type: "application/octet-stream" }));
    const parsed = await readUploadForm(post(form), LIMITS);
    expect(parsed.get("claimantName")).toBe("Pat");
    const files = await filesFrom(parsed, "evidence");
    expect(files.map((f) => [f.name, new TextDecoder().decode(f.bytes)])).toEqual([["a.pdf", "%PDF-1.4"]]);
  });

  it("answers 400 naming the limit for too many files, 413 for too large, 400 for an unreadable body", async () => {
    const many = new FormData();
    for (let i = 0; i < 4; i++) many.append("evidence", new File(["x"], `${i}.pdf`));
    await expect(readUploadForm(post(many), LIMITS)).rejects.toMatchObject({
      status: 400,
      message: "Attach at most 3 files.",
    });
    const big = new FormData();
    big.append("evidence", new File([new Uint8Array(2048)], "big.pdf"));
    await expect(readUploadForm(post(big), LIMITS)).rejects.toMatchObject({ status: 413 });
    const broken = post("--nope\r\n", { "content-type": "multipart/form-data; boundary=abc" });
    await expect(readUploadForm(broken, LIMITS)).rejects.toMatchObject({ status: 400 });
  });
});

describe("withUploadedFiles", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "uploads-"));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const left = () => fs.readdirSync(dir).flatMap((d) => [d, ...fs.readdirSync(path.join(dir, d))]);

  it("hands over each file from a temporary file of its own, and removes them once answered", async () => {
    const form = new FormData();
    form.set("note", "hello");
    form.append("photos", new File(["first"], "a.jpg"));
    form.append("photos", new File([], ""));
    form.append("photos", new File(["second!"], "b.jpg"));
    const seen = await withUploadedFiles(post(form), LIMITS, dir, async (fields, files) => {
      // While `work` runs, the files are on disk, not in the form.
      expect(fs.readdirSync(dir)).toHaveLength(1);
      expect(fs.readdirSync(path.join(dir, fs.readdirSync(dir)[0]!))).toHaveLength(2);
      expect(fields.get("note")).toBe("hello");
      expect(fields.getAll("photos")).toEqual([]);
      return Promise.all(files.map(async (f) => [f.field, f.name, f.size, new TextDecoder().decode(await f.read())]));
    });
    expect(seen).toEqual([
      ["photos", "a.jpg", 5, "first"],
      ["photos", "b.jpg", 7, "second!"],
    ]);
    expect(left()).toEqual([]);
  });

  it("refuses with 413 at the first file over its cap or the request over its cap, leaving nothing behind", async () => {
    const big = new FormData();
    big.append("photos", new File(["small"], "ok.jpg"));
    big.append("photos", new File([new Uint8Array(2048)], "big.jpg"));
    let ran = false;
    const use = async () => {
      ran = true;
    };
    expect(await rejection(withUploadedFiles(post(big), LIMITS, dir, use))).toMatchObject({
      status: 413,
      details: { limit: "file" },
    });
    const many = new FormData();
    for (let i = 0; i < 3; i++) many.append("photos", new File([new Uint8Array(1000)], `${i}.jpg`));
    const capped = { ...LIMITS, maxTotalBytes: 2500 };
    expect(await rejection(withUploadedFiles(post(many), capped, dir, use))).toMatchObject({
      status: 413,
      details: { limit: "request" },
    });
    expect(ran).toBe(false);
    expect(left()).toEqual([]);
  });

  it("removes the files when the work on them fails, and a crashed process's leftovers after an hour", async () => {
    const stale = path.join(dir, "upload-crashed");
    fs.mkdirSync(stale);
    fs.writeFileSync(path.join(stale, "0"), "left over");
    const hourAgo = new Date(Date.now() - 61 * 60 * 1000);
    fs.utimesSync(stale, hourAgo, hourAgo);
    const form = new FormData();
    form.append("photos", new File(["x"], "a.jpg"));
    const failure = new Error("the pipeline broke");
    await expect(
      withUploadedFiles(post(form), LIMITS, dir, async () => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(left()).toEqual([]);
  });
});
