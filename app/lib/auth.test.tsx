import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AuthProvider, SIGNED_OUT, useAuth } from "./auth";

function Probe() {
  const auth = useAuth();
  return <p>{JSON.stringify(auth)}</p>;
}

const shown = (html: string) => JSON.parse(html.replace(/^<p>|<\/p>$/g, "").replaceAll("&quot;", '"')) as unknown;

describe("useAuth (docs/product.md sections 4 and 8)", () => {
  it("throws the documented message (docs/product.md section 8) outside an AuthProvider", () => {
    expect(() => renderToString(<Probe />)).toThrow("useAuth must be used within an AuthProvider");
  });

  it("is loading for a visitor until the anonymous sign-in answers, and not for a known session", () => {
    const { loading: _, ...nobody } = SIGNED_OUT;
    expect(
      shown(
        renderToString(
          <AuthProvider page={{ personal: { auth: nobody, saved: [] } }}>
            <Probe />
          </AuthProvider>,
        ),
      ),
    ).toEqual({ ...SIGNED_OUT, loading: true });
    const admin = { ...nobody, hasSession: true, signedIn: true, isAdmin: true, isOwner: true, name: "Ada" };
    expect(
      shown(
        renderToString(
          <AuthProvider page={{ personal: { auth: admin, saved: [] } }}>
            <Probe />
          </AuthProvider>,
        ),
      ),
    ).toEqual({ ...admin, loading: false });
  });

  it("is loading on a page a shared cache keeps, whoever looks, until GET /api/session answers", () => {
    expect(
      shown(
        renderToString(
          <AuthProvider page={{ personal: null }}>
            <Probe />
          </AuthProvider>,
        ),
      ),
    ).toEqual({ ...SIGNED_OUT, loading: true });
  });
});
