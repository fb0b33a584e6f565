import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Button, buttonClasses } from "./button";

describe("Button", () => {
  it("is a plain button that does not submit by accident", () => {
    const html = renderToString(<Button>Save</Button>);
    expect(html).toContain('type="button"');
    expect(html).not.toContain("aria-busy=");
    expect(html).not.toContain("disabled=");
  });

  it("while pending is disabled, busy, and keeps its label beside a spinner", () => {
    const html = renderToString(
      <Button type="submit" pending>
        Save listing
      </Button>,
    );
    expect(html).toContain('aria-busy="true"');
    expect(html).toMatch(/<button[^>]* disabled=""/);
    expect(html).toContain("<svg");
    expect(html).toContain("Save listing");
  });

  it("names its look by component classes, which a caller's utilities override in CSS", () => {
    expect(buttonClasses("primary", "md", "mt-4 px-6")).toBe("btn btn-md btn-primary mt-4 px-6");
    expect(buttonClasses("danger", "sm")).toBe("btn btn-sm btn-danger");
  });
});
