import { describe, expect, it } from "vitest";
import { filesFrom, readUploadForm } from "./upload";

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
