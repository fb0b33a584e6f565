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

  it("lets a caller's classes override its own", () => {
    expect(buttonClasses("primary", "md", "px-6")).toContain("px-6");
    expect(buttonClasses("primary", "md", "px-6")).not.toContain("px-4");
    expect(buttonClasses("danger", "sm")).toContain("bg-red-600");
  });
});
