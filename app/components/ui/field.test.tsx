import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Field, FormError } from "./field";
import { Input } from "./input";

const attr = (html: string, tag: string, name: string) => new RegExp(`<${tag}[^>]* ${name}="([^"]*)"`).exec(html)?.[1];

describe("Field", () => {
  it("points the label at the control and describes it by its hint and error", () => {
    const html = renderToString(
      <Field label="Facility name" name="name" hint="As on your sign." error={["Enter the facility's name."]}>
        {(control) => <Input {...control} defaultValue="" />}
      </Field>,
    );
    const id = attr(html, "input", "id");
    expect(id).toBeTruthy();
    expect(attr(html, "label", "for")).toBe(id);
    expect(attr(html, "input", "name")).toBe("name");
    expect(attr(html, "input", "aria-invalid")).toBe("true");
    const described = attr(html, "input", "aria-describedby")?.split(" ") ?? [];
    expect(described).toEqual([`${id}-hint`, `${id}-error`]);
    expect(html).toMatch(new RegExp(`id="${id}-hint"[^>]*>As on your sign.`));
    expect(html).toMatch(new RegExp(`id="${id}-error"`));
    expect(html).toContain("Enter the facility&#x27;s name.");
  });

  it("without hint or error describes nothing and is not invalid", () => {
    const html = renderToString(
      <Field label="Name" name="name">
        {(control) => <Input {...control} />}
      </Field>,
    );
    expect(html).not.toContain("aria-describedby");
    expect(html).not.toContain("aria-invalid");
  });
});

describe("FormError", () => {
  it("announces a form-level message and renders nothing without one", () => {
    expect(renderToString(<FormError message="We could not save." />)).toContain('role="alert"');
    expect(renderToString(<FormError message={undefined} />)).toBe("");
  });
});
